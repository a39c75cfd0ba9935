import type { RouteDefinition } from '../../../functions/definitions/routes';
import { UnauthorizedError, ValidationError } from '../../../functions/shared/errors';
import { createHttpHandler } from '../../../functions/shared/http/handler';
import type { HttpEvent } from '../../../functions/shared/http/types';

const testRoutes: RouteDefinition[] = [
  { api: 'collector', method: 'POST', path: '/v1/things', lambda: 'collector', operation: 'create', auth: { kind: 'collector-app' }, summary: 'create' },
  { api: 'collector', method: 'GET', path: '/v1/things/{id}', lambda: 'collector', operation: 'get', auth: { kind: 'none' }, summary: 'get' },
];

function event(method: string, path: string, headers: Record<string, string> = {}, body?: string): HttpEvent {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers,
    body,
    isBase64Encoded: false,
    requestContext: { http: { method, path, protocol: 'HTTP/1.1', sourceIp: '10.0.0.1', userAgent: 'test' }, timeEpoch: Date.now() },
  } as unknown as HttpEvent;
}

describe('createHttpHandler', () => {
  const handler = createHttpHandler<string>({
    routes: testRoutes,
    authenticate: async (route, request) => {
      if (route.auth.kind === 'none') return 'anonymous';
      if (request.headers['x-key'] !== 'secret') throw new UnauthorizedError('no key', [{ field: 'x-key', reason: 'missing' }]);
      return 'caller';
    },
    operations: {
      create: async (request) => {
        if (request.rawBody.length === 0) throw new ValidationError('body required', [{ index: 2, field: 'request.time', reason: 'Required' }]);
        throw new Error('secret internal detail');
      },
      get: async (request, auth) => ({ status: 200, body: { id: request.pathParams['id'], auth } }),
    },
    extraHeaders: (auth): Record<string, string> => (auth ? { 'x-auth': auth } : {}),
  });

  it('routes, passes path parameters and adds CORS and extra headers', async () => {
    const result = await handler(event('GET', '/v1/things/42'));
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body!)).toEqual({ id: '42', auth: 'anonymous' });
    expect(result.headers).toMatchObject({ 'access-control-allow-origin': '*', 'content-type': 'application/json; charset=utf-8', 'x-auth': 'anonymous' });
  });

  it('maps a ValidationError to 400 with the one error shape', async () => {
    const result = await handler(event('POST', '/v1/things', { 'x-key': 'secret' }));
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body!)).toEqual({
      error: { status: 400, code: 'invalid_request', message: 'body required', details: [{ index: 2, field: 'request.time', reason: 'Required' }] },
    });
    expect(result.headers?.['access-control-allow-origin']).toBe('*');
  });

  it('answers 401 before the operation runs', async () => {
    const result = await handler(event('POST', '/v1/things', {}, '{}'));
    expect(result.statusCode).toBe(401);
    expect(JSON.parse(result.body!).error.code).toBe('unauthorized');
  });

  it('hides unexpected errors behind a 500 that reveals nothing', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    const result = await handler(event('POST', '/v1/things', { 'x-key': 'secret' }, '{}'));
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
    expect(result.statusCode).toBe(500);
    expect(result.body).not.toContain('secret internal detail');
    expect(JSON.parse(result.body!).error.code).toBe('internal_error');
  });

  it('answers 404 and 405 in the same shape', async () => {
    const notFound = await handler(event('GET', '/nope'));
    expect(notFound.statusCode).toBe(404);
    expect(JSON.parse(notFound.body!).error.code).toBe('not_found');
    const wrongMethod = await handler(event('DELETE', '/v1/things'));
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers?.allow).toBe('POST');
  });

  it.each([
    ['text/html', 406],
    ['application/xml, text/plain', 406],
    ['application/json;q=0', 406],
    ['application/json', 200],
    ['*/*', 200],
    ['text/html, application/*;q=0.5', 200],
    ['application/problem+json', 200],
  ])('negotiates Accept: %s → %i', async (accept, status) => {
    const result = await handler(event('GET', '/v1/things/1', { accept }));
    expect(result.statusCode).toBe(status);
    if (status === 406) expect(JSON.parse(result.body!).error.code).toBe('not_acceptable');
  });

  it('answers CORS preflight for known paths and 404 for unknown ones', async () => {
    const preflight = await handler(event('OPTIONS', '/v1/things', { 'access-control-request-headers': 'content-type, x-service-application-id' }));
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'content-type, x-service-application-id',
    });
    expect((await handler(event('OPTIONS', '/elsewhere'))).statusCode).toBe(404);
  });

  it('refuses a route table that names a missing operation', () => {
    expect(() => createHttpHandler({ routes: [{ ...testRoutes[0]!, operation: 'missing' }], authenticate: async () => 'x', operations: {} })).toThrow(
      /unknown operation missing/,
    );
  });
});
