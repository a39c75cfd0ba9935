import { MANAGEMENT_PATH_PREFIXES, routesOf, type RouteDefinition } from '../../functions/definitions/routes';
import { managementScopes, type ManagementScope } from '../../schemas/scopes';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Walks the whole management route table as it is at run time (routes added later are covered
 * without touching this file): for every token route, a token holding every scope except the
 * route's gets 401 naming that scope, under each path prefix the route is served on.
 */
describe('every management route requires its scope', () => {
  let rt: TestRuntime;
  const tokens = new Map<ManagementScope, Promise<string>>();

  beforeAll(async () => {
    rt = await startTestRuntime('route-scopes', { managementAuth: { rateLimitPerMinute: 100_000 } });
  });
  afterAll(() => rt?.dispose());

  const tokenWithout = (scope: ManagementScope) => {
    let token = tokens.get(scope);
    if (!token) tokens.set(scope, (token = rt.issueToken({ scopes: managementScopes.filter((s) => s !== scope) })));
    return token;
  };

  const tokenRoutes = routesOf({ api: 'management' }).filter(
    (r): r is RouteDefinition & { auth: { kind: 'management-token'; scope: ManagementScope } } => r.auth.kind === 'management-token',
  );

  it('walks a route table with token routes on both management Lambdas', () => {
    expect(tokenRoutes.some((r) => r.lambda === 'search')).toBe(true);
    expect(tokenRoutes.some((r) => r.lambda === 'management')).toBe(true);
  });

  it('answers 401 naming the missing scope, for every token route and prefix', async () => {
    const cases = tokenRoutes.flatMap((route) =>
      (route.exactPath ? [''] : MANAGEMENT_PATH_PREFIXES).map((prefix) => ({
        route,
        path: prefix + route.path.replace(/\{(\w+)\}/g, (_, name: string) => `dummy-${name}`),
      })),
    );
    const failures: string[] = [];
    // A few at a time: the emulators are shared with other test files.
    for (let i = 0; i < cases.length; i += 8) {
      await Promise.all(
        cases.slice(i, i + 8).map(async ({ route, path }) => {
          const scope = route.auth.scope;
          const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined;
          const answer = await rt.management(route.method, path, { authorization: `Bearer ${await tokenWithout(scope)}` }, body);
          const named = answer.body?.error?.details?.some((d: { reason: string }) => d.reason === `missing scope ${scope}`);
          if (answer.status !== 401 || !named) failures.push(`${route.method} ${path} (${scope}): ${answer.status} ${JSON.stringify(answer.body)}`);
        }),
      );
    }
    expect(failures).toEqual([]);
    expect(cases.length).toBeGreaterThan(tokenRoutes.length);
  });

  it('lets the same request through the scope check with the scope held (not a blanket 401)', async () => {
    const full = await rt.issueToken();
    for (const route of tokenRoutes.filter((r) => r.method === 'GET' && !r.path.includes('{')).slice(0, 5)) {
      const answer = await rt.management(route.method, route.path, { authorization: `Bearer ${full}` });
      expect([route.path, answer.status]).not.toEqual([route.path, 401]);
    }
  });
});
