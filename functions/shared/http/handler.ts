import middy from '@middy/core';
import type { RouteDefinition } from '../../definitions/routes';
import { NotAcceptableError, NotFoundError } from '../errors';
import { errorResult } from './error-response';
import { CORS_HEADERS, jsonResult } from './json-result';
import { Router } from './router';
import type { HandlerContext, HttpEvent, HttpRequest, HttpResult, OperationResult } from './types';

export type Operation<A> = (request: HttpRequest, auth: A) => Promise<OperationResult>;

export interface HttpHandlerOptions<A> {
  readonly routes: readonly RouteDefinition[];
  /** Checks the route's auth requirement and returns who is calling; throws UnauthorizedError. */
  readonly authenticate: (route: RouteDefinition, request: HttpRequest) => Promise<A>;
  readonly operations: Readonly<Record<string, Operation<A>>>;
  /** Headers added to every answer of this API (e.g. the collector's config ETag). */
  readonly extraHeaders?: (auth: A | undefined) => Record<string, string>;
}

export type HttpHandler = (event: HttpEvent, context?: HandlerContext) => Promise<HttpResult>;

/**
 * Builds a Lambda handler for API Gateway HTTP API events: CORS preflight, content negotiation,
 * routing with the shared route table, authentication, the operation, and errors mapped to the one
 * JSON error shape. The same handler serves the local runtime.
 */
export function createHttpHandler<A>(options: HttpHandlerOptions<A>): HttpHandler {
  for (const route of options.routes) {
    if (!options.operations[route.operation]) throw new Error(`route ${route.method} ${route.path} names unknown operation ${route.operation}`);
  }
  const router = new Router(options.routes);

  const base = async (event: HttpEvent, context: HandlerContext): Promise<HttpResult> => {
    const request = toHttpRequest(event, context);
    if (request.method === 'OPTIONS') return preflight(router, request);
    // A path or method that does not exist is a 404 or 405 whatever the Accept header says.
    const { route, pathParams } = router.match(request.method, request.path);
    assertAcceptsJson(request.headers['accept']);
    Object.assign(request.pathParams, pathParams);
    const auth = await options.authenticate(route, request);
    const result = await options.operations[route.operation]!(request, auth);
    const answer = jsonResult(result.status, result.body, { ...options.extraHeaders?.(auth), ...result.headers });
    return result.cookies === undefined ? answer : { ...answer, cookies: result.cookies };
  };

  // middy types its context as Lambda's; the runtime's own (HandlerContext) travels through it untouched.
  const handler = middy<HttpEvent, HttpResult>((event: HttpEvent, context: object) => base(event, context as HandlerContext)).onError(async (request) => {
    request.response = errorResult(request.error);
  });
  return (event, context) => handler(event, (context ?? {}) as never);
}

export function toHttpRequest(event: HttpEvent, context?: HandlerContext): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) {
    // Defined, not assigned: `?__proto__=1` would otherwise vanish instead of being refused as an unknown parameter.
    if (value !== undefined) Object.defineProperty(query, name, { value, enumerable: true, writable: true, configurable: true });
  }
  const body = event.body ?? '';
  let rawBody: Buffer | undefined;
  return {
    method: (event.requestContext?.http?.method ?? 'GET').toUpperCase(),
    path: event.rawPath || event.requestContext?.http?.path || '/',
    headers,
    cookies: cookiesOf(event.cookies ?? (headers['cookie'] ? headers['cookie'].split(';') : [])),
    query,
    pathParams: {},
    get rawBody() {
      return (rawBody ??= event.isBase64Encoded ? Buffer.from(body, 'base64') : Buffer.from(body, 'utf8'));
    },
    bodyText: event.isBase64Encoded ? undefined : body,
    sourceIp: event.requestContext?.http?.sourceIp ?? '',
    receivedAt: event.requestContext?.timeEpoch ? new Date(event.requestContext.timeEpoch) : new Date(),
    ...(context?.disconnected === undefined ? {} : { disconnected: context.disconnected }),
  };
}

function preflight(router: Router, request: HttpRequest): HttpResult {
  const methods = router.methodsFor(request.path);
  if (methods.length === 0) return errorResult(new NotFoundError(`No endpoint at ${request.path}`));
  return {
    statusCode: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
      'access-control-allow-headers':
        request.headers['access-control-request-headers'] ??
        'content-type, content-encoding, authorization, x-service-application-id, x-moesif-application-id, x-moesif-sdk',
      'access-control-max-age': '86400',
    },
    body: '',
  };
}

/** 406 when the client's Accept header rules JSON out (absent, `*\/*`, `application/*` and `+json` types are fine). */
function assertAcceptsJson(accept: string | undefined): void {
  if (!accept) return;
  const acceptable = accept.split(',').some((part) => {
    const [type = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) return false;
    return type === '*/*' || type === 'application/*' || type === 'application/json' || type.endsWith('+json') || type === '';
  });
  if (!acceptable) {
    throw new NotAcceptableError(`This API answers only application/json; the Accept header asked for ${accept}`, [
      { field: 'accept', reason: 'excludes application/json' },
    ]);
  }
}

/** `name=value` pairs by name; the first of a repeated name wins (the most specific path, as browsers order them). */
function cookiesOf(pairs: readonly string[]): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    if (!Object.hasOwn(cookies, name)) cookies[name] = pair.slice(at + 1).trim();
  }
  return cookies;
}
