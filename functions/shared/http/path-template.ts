/**
 * A route's path template (`/~/cohorts/{id}/members`) matched segment by segment: a literal segment
 * must be equal, a `{name}` segment takes any non-empty segment. One mechanism for the router, the
 * local gateway dispatch and the OpenAPI answer check; no regular expression is built from a path.
 */
export interface PathTemplate {
  readonly template: string;
  /** Parameter names, in path order. */
  readonly params: readonly string[];
  /** Literal segments: among templates that match a path, the one with more wins (`/~/cohorts/mine` over `/~/cohorts/{id}`). */
  readonly literals: number;
  /** The parameters' raw (still percent-encoded) values in path order, or undefined when the path does not match. */
  match(path: string): string[] | undefined;
}

const PARAMETER = /^\{(\w+)\}$/;

export function pathTemplate(template: string): PathTemplate {
  const segments = template.split('/').map((segment) => ({ literal: segment, param: PARAMETER.exec(segment)?.[1] }));
  return {
    template,
    params: segments.flatMap((segment) => (segment.param === undefined ? [] : [segment.param])),
    literals: segments.filter((segment) => segment.param === undefined).length,
    match(path) {
      const parts = path.split('/');
      if (parts.length !== segments.length) return undefined;
      const values: string[] = [];
      for (const [i, segment] of segments.entries()) {
        const part = parts[i] as string;
        if (segment.param === undefined) {
          if (part !== segment.literal) return undefined;
        } else {
          if (part === '') return undefined;
          values.push(part);
        }
      }
      return values;
    },
  };
}
