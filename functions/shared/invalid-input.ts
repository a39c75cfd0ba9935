import type * as z from 'zod';
import { ValidationError, type FieldIssue } from './errors';

/** A 400 lists at most this many problems, so a batch of garbage cannot produce a huge answer. */
export const MAX_LISTED_ISSUES = 100;

export interface IssueNaming {
  /** What an empty path is called: `body`, `query`, `item`. */
  readonly root: string;
  /** Where the parsed value sits in the request (a nested query's `steps[0].query`). */
  readonly prefix?: readonly PropertyKey[];
  /** The position of the item in a batch body. */
  readonly index?: number;
  /** Why an unknown member is refused; it is then named itself (`body.colour`), not its parent. */
  readonly unknownMember?: (key: string) => string;
}

/** A path in dotted form: `request.headers.x-id`, `items[2].plan_id`; the root's name when empty. */
export function fieldPath(path: readonly PropertyKey[], root: string): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text ? `.${String(segment)}` : String(segment);
  }
  return text || root;
}

/** zod's issues as field issues, each naming its field and the reason. */
export function fieldIssuesOf(issues: readonly z.core.$ZodIssue[], naming: IssueNaming): FieldIssue[] {
  const prefix = naming.prefix ?? [];
  const named = (path: readonly PropertyKey[], reason: string): FieldIssue => {
    const field = fieldPath([...prefix, ...path], naming.root);
    return naming.index === undefined ? { field, reason } : { index: naming.index, field, reason };
  };
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' && naming.unknownMember
      ? issue.keys.map((key) => named([...issue.path, key], naming.unknownMember!(key)))
      : [named(issue.path, issue.message)],
  );
}

/** The 400 for these problems: its message names the first three, its details list up to a hundred. */
export function invalidInput(what: string, issues: readonly FieldIssue[]): ValidationError {
  const listed = issues.slice(0, MAX_LISTED_ISSUES);
  return new ValidationError(
    `Invalid ${what}: ${listed
      .slice(0, 3)
      .map((i) => `${i.field}: ${i.reason}`)
      .join('; ')}`,
    listed,
  );
}

/** Parses with a zod schema; a failure is a 400 naming each field and the reason (`invalidInput`). */
export function parseOrRefuse<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
  naming: IssueNaming,
  options?: z.core.ParseContext<z.core.$ZodIssue>,
): z.output<S> {
  const result = schema.safeParse(value, options);
  if (result.success) return result.data;
  throw invalidInput(what, fieldIssuesOf(result.error.issues, naming));
}

/**
 * Parse options under which a missing member reads "is required", not "expected string, received
 * undefined" (nor, for an enum or a literal, the list of values it expected).
 */
export const REQUIRED_WHEN_MISSING = {
  error: (issue: z.core.$ZodRawIssue) =>
    issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value') ? 'is required' : undefined,
};

/** A JSON body through a zod schema: every problem is a 400 naming its member (`body.colour is not a known field`). */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  return parseOrRefuse(schema, body, 'body', { root: 'body', unknownMember: () => 'is not a known field' }, REQUIRED_WHEN_MISSING);
}

/** Query parameters through a zod schema: every problem is a 400 naming the parameter. */
export function parseQueryParams<S extends z.ZodType>(schema: S, query: Readonly<Record<string, string>>): z.output<S> {
  return parseOrRefuse(schema, query, 'query parameters', { root: 'query', unknownMember: () => 'is not a known query parameter' });
}
