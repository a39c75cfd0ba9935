import fc from 'fast-check';
import { inferredTemplate, isIdentifierSegment, patternMatches, routeTemplate } from '../../../functions/search/route-templates';
import { AppUpdate } from '../../../schemas/resources/app-input';

describe('route templates', () => {
  it.each([
    ['/items/195', '/items/:id'],
    ['/v1/users/8f14e45f-ceea-467a-9575-e0f3c1fbcd1b/orders/42', '/v1/users/:id/orders/:id'],
    ['/blobs/5d41402abc4b2a76b9719d911017c592', '/blobs/:id'],
    ['/objects/507f1f77bcf86cd799439011', '/objects/:id'],
    ['/customers/cus_NffrFeUfNV2Hib', '/customers/:id'],
    ['/events/01ARZ3NDEKTSV4RRFFQ69G5FAV', '/events/:id'],
    ['/v2/health', '/v2/health'],
    ['/api/oauth2/token', '/api/oauth2/token'],
    ['/users/me/', '/users/me/'],
    ['/', '/'],
    ['/decaf-coffee-beans/deadbeef', '/decaf-coffee-beans/deadbeef'],
  ])('%s → %s', (path, template) => {
    expect(inferredTemplate(path)).toBe(template);
  });

  it('tries the app patterns in order before inferring', () => {
    const patterns = ['/orders/:order_id/items/:item_id', '/users/:handle', '/users/:other'];
    expect(routeTemplate('/orders/A-17/items/blue', patterns)).toBe('/orders/:order_id/items/:item_id');
    expect(routeTemplate('/users/ada', patterns)).toBe('/users/:handle');
    expect(routeTemplate('/users/ada/keys/42', patterns)).toBe('/users/ada/keys/:id');
    expect(routeTemplate('/users/', patterns)).toBe('/users/');
  });

  it('a parameter never matches an empty segment, a literal only itself', () => {
    expect(patternMatches('/a/:x', '/a/')).toBe(false);
    expect(patternMatches('/a/:x', '/b/c')).toBe(false);
    expect(patternMatches('/a/:x', '/a/c/d')).toBe(false);
  });

  it('keeps the number of segments and every non-identifier segment, and is idempotent', () => {
    const segment = fc.oneof(fc.stringMatching(/^[a-z-]{1,12}$/), fc.nat().map(String), fc.uuid(), fc.constant(''));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        const path = `/${segments.join('/')}`;
        const template = inferredTemplate(path);
        const out = template.split('/');
        expect(out).toHaveLength(path.split('/').length);
        path.split('/').forEach((part, i) => expect(out[i]).toBe(isIdentifierSegment(part) ? ':id' : part));
        expect(inferredTemplate(template)).toBe(template);
      }),
    );
  });

  it('an app names patterns that are paths with :name parameters, and is told why otherwise', () => {
    expect(AppUpdate.safeParse({ route_templates: ['/orders/:order_id'] }).success).toBe(true);
    for (const [pattern, reason] of [
      ['orders/:id', 'starts with /'],
      ['/orders?id=1', 'no query string'],
      ['/orders/:9', ':name'],
    ]) {
      const result = AppUpdate.safeParse({ route_templates: [pattern] });
      expect(result.success).toBe(false);
      expect(JSON.stringify(result.error?.issues)).toContain(reason);
    }
  });
});
