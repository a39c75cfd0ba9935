import { routes, routesOf } from '../../../functions/definitions/routes';
import { MethodNotAllowedError, NotFoundError } from '../../../functions/shared/errors';
import { Router } from '../../../functions/shared/http/router';

describe('Router', () => {
  const router = new Router(routes);

  it('matches literal collector paths', () => {
    expect(router.match('POST', '/v1/events/batch').route.operation).toBe('eventsBatch');
    expect(router.match('POST', '/v1/events').route.operation).toBe('events');
    expect(router.match('GET', '/health/probe').route.operation).toBe('probe');
  });

  it('extracts and decodes path parameters', () => {
    const match = router.match('GET', '/search/~/users/user%20one');
    expect(match.route.operation).toBe('getUser');
    expect(match.pathParams).toEqual({ id: 'user one' });
  });

  it('answers a path parameter that is not valid percent-encoding with a 400 naming it, and needs every parameter non-empty', () => {
    expect(() => router.match('GET', '/search/~/users/%E0%A4')).toThrow(
      expect.objectContaining({ status: 400, details: [{ field: 'id', reason: 'is not valid percent-encoding' }] }),
    );
    expect(() => router.match('GET', '/search/~/users//x')).toThrow(NotFoundError);
    // Characters that mean something in a regular expression are plain text in a path.
    expect(() => router.match('POST', '/v1/events.batch')).toThrow(NotFoundError);
    expect(router.match('GET', '/search/~/users/a.*(b)+').pathParams).toEqual({ id: 'a.*(b)+' });
  });

  it('serves every management route under /v1 as well', () => {
    // Each API has its own router (both serve GET /openapi.json).
    const management = new Router(routesOf({ api: 'management' }));
    for (const route of routesOf({ api: 'management' })) {
      const path = route.path.replace(/\{(\w+)\}/g, 'x');
      const expected = route.exactPath ? [path] : [path, `/v1${path}`];
      for (const candidate of expected) expect(management.match(route.method, candidate).route).toBe(route);
    }
  });

  it('does not serve collector routes under a second /v1 prefix', () => {
    expect(() => router.match('POST', '/v1/v1/events')).toThrow(NotFoundError);
  });

  it('ignores one trailing slash', () => {
    expect(router.match('POST', '/v1/users/').route.operation).toBe('users');
  });

  it('answers an unknown path with NotFoundError', () => {
    expect(() => router.match('GET', '/v1/nothing-here')).toThrow(NotFoundError);
  });

  it('answers a known path with the wrong method with 405 naming the allowed methods', () => {
    try {
      router.match('GET', '/v1/events');
      throw new Error('expected a 405');
    } catch (error) {
      expect(error).toBeInstanceOf(MethodNotAllowedError);
      expect((error as MethodNotAllowedError).headers).toEqual({ allow: 'POST' });
    }
  });

  it('names every operation exactly once per API', () => {
    for (const api of ['collector', 'management'] as const) {
      const keys = routesOf({ api }).map((r) => `${r.method} ${r.path}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });
});
