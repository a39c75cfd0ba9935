import type { RouteDefinition } from '../../definitions/routes';
import { MANAGEMENT_PATH_PREFIXES } from '../../definitions/routes';
import { MethodNotAllowedError, NotFoundError, ValidationError } from '../errors';
import { pathTemplate, type PathTemplate } from './path-template';

export interface RouteMatch {
  route: RouteDefinition;
  pathParams: Record<string, string>;
}

interface CompiledRoute {
  route: RouteDefinition;
  template: PathTemplate;
}

/** Matches request paths against a set of routes; unknown path → 404, known path wrong method → 405. */
export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(routes: readonly RouteDefinition[]) {
    this.compiled = routes.flatMap((route) => {
      const prefixes = route.api === 'management' && !route.exactPath ? MANAGEMENT_PATH_PREFIXES : [''];
      return prefixes.map((prefix) => ({ route, template: pathTemplate(prefix + route.path) }));
    });
  }

  /** Methods served on a path (for 405 and CORS preflight answers); empty if the path is unknown. */
  methodsFor(path: string): string[] {
    const clean = normalise(path);
    const methods = this.compiled.filter((c) => c.template.match(clean) !== undefined).map((c) => c.route.method);
    return [...new Set(methods)];
  }

  match(method: string, path: string): RouteMatch {
    const clean = normalise(path);
    let pathKnown = false;
    for (const c of this.compiled) {
      const values = c.template.match(clean);
      if (!values) continue;
      pathKnown = true;
      if (c.route.method !== method) continue;
      const pathParams: Record<string, string> = {};
      c.template.params.forEach((name, i) => {
        pathParams[name] = decodedParam(name, values[i] ?? '');
      });
      return { route: c.route, pathParams };
    }
    if (pathKnown) throw new MethodNotAllowedError(method, clean, this.methodsFor(clean));
    throw new NotFoundError(`No endpoint at ${clean}`);
  }
}

function normalise(path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed || '/';
}

/** A path parameter's value; one that is not valid percent-encoding (`%E0%A4`) is the caller's mistake, a 400 naming it. */
function decodedParam(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ValidationError(`Invalid ${name}: not valid percent-encoding`, [{ field: name, reason: 'is not valid percent-encoding' }]);
  }
}
