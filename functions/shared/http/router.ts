import type { RouteDefinition } from '../../definitions/routes';
import { MANAGEMENT_PATH_PREFIXES } from '../../definitions/routes';
import { MethodNotAllowedError, NotFoundError } from '../errors';

export interface RouteMatch {
  route: RouteDefinition;
  pathParams: Record<string, string>;
}

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  params: string[];
}

/** Matches request paths against a set of routes; unknown path → 404, known path wrong method → 405. */
export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(routes: readonly RouteDefinition[]) {
    this.compiled = routes.flatMap((route) => {
      const prefixes = route.api === 'management' && !route.exactPath ? MANAGEMENT_PATH_PREFIXES : [''];
      return prefixes.map((prefix) => compile(route, prefix + route.path));
    });
  }

  /** Methods served on a path (for 405 and CORS preflight answers); empty if the path is unknown. */
  methodsFor(path: string): string[] {
    const methods = this.compiled.filter((c) => c.pattern.test(normalise(path))).map((c) => c.route.method);
    return [...new Set(methods)];
  }

  match(method: string, path: string): RouteMatch {
    const clean = normalise(path);
    let pathKnown = false;
    for (const c of this.compiled) {
      const m = c.pattern.exec(clean);
      if (!m) continue;
      pathKnown = true;
      if (c.route.method !== method) continue;
      const pathParams: Record<string, string> = {};
      c.params.forEach((name, i) => {
        pathParams[name] = decodeURIComponent(m[i + 1] ?? '');
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

function compile(route: RouteDefinition, path: string): CompiledRoute {
  const params: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param) {
        params.push(param[1]!);
        return '([^/]+)';
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), params };
}
