import * as fc from 'fast-check';
import { send, startTestRuntime, type TestRuntime, type TestResponse } from './support/runtime';

/**
 * Property tests: arbitrary JSON and near-misses of valid bodies thrown at create and update of every
 * kind through the HTTP API on DynamoDB Local. Never a 500; every 4xx has the error shape naming a
 * field; a refused create leaves no item and a refused update leaves the stored document as it was.
 */
describe('managed resources under fuzzed input', () => {
  let rt: TestRuntime;

  beforeAll(async () => {
    rt = await startTestRuntime('resources-fuzz', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
  });
  afterAll(() => rt?.dispose());

  const api = (method: string, path: string, body?: unknown) => rt.management(method, path, {}, body);

  interface KindCase {
    name: string;
    path: string;
    valid: () => Promise<Record<string, unknown>>;
    idOf: (doc: any) => string;
    /** The create body may also be a JSON array of items (the keystore): `[1]` is refused naming the item. */
    listBody?: boolean;
  }
  let validKeys = 0;

  const kinds: KindCase[] = [
    {
      name: 'apps',
      path: '/~/apps',
      valid: async () => ({
        name: 'App',
        time_zone: 'UTC',
        week_starts_on: 1,
        sample_rate: 50,
        regex_config: [{ conditions: [{ path: 'request.route', value: '^/a' }], sample_rate: 10 }],
      }),
      idOf: (doc) => doc.id,
    },
    {
      name: 'cohorts',
      path: '/~/cohorts',
      valid: async () => ({
        cohort_name: 'C',
        cohort_type: 'user',
        criteria: { query: { term: { 'user_id.raw': 'a' } } },
        notification_rule: { send_on_addition: true, send_on_removal: false },
      }),
      idOf: (doc) => doc._id,
    },
    {
      name: 'governance rules',
      path: '/~/governance/rules',
      valid: async () => ({
        name: 'R',
        type: 'company',
        state: 1,
        block: true,
        regex_config: [{ conditions: [{ path: 'request.verb', value: 'GET' }] }],
        response: { status: 429, headers: { a: 'b' }, body: { x: 1 } },
        variables: [{ name: 'email', path: 'company.metadata.email' }],
        plans: [{ provider: 'stripe', plan_id: 'pro', price_ids: ['price_1'] }],
        model: 'quota',
        quota: { limit: 100, metric: 'count', query: { term: { 'request.verb': 'GET' } } },
      }),
      idOf: (doc) => doc._id,
    },
    {
      name: 'billing meters',
      path: '/~/billing/meters',
      valid: async () => ({
        name: 'M',
        slug: 'm',
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'stripe', params: { usage_multiplier: 2, stripe_params: { price: { price_id: 'p' } } } },
      }),
      idOf: (doc) => doc._id,
    },
    {
      name: 'dashboards',
      path: '/~/dashboards',
      valid: async () => ({ name: 'D', sort_order: 1, policy: { acl: [{ grantee: 'g', permission: 'read' }], resource: {} } }),
      idOf: (doc) => doc._id,
    },
    {
      name: 'workspaces',
      path: '/~/workspaces',
      valid: async () => ({
        name: 'W',
        policy: { acl: [], resource: {} },
        chart: { view: 'v', url_query: 'q', es_query: { query: { term: { 'response.status': 500 } } } },
        drawings: [{ id: 'd', name: 'n', type: 't', value: 1, direction: 'up' }],
      }),
      idOf: (doc) => doc._id,
    },
    {
      name: 'email templates',
      path: '/~/emails/templates',
      valid: async () => ({
        name: 'E',
        state: 1,
        addresses: { from: 'a@example.com', cc: [], bcc: ['b@example.com'] },
        cohorts: [],
        template: { subject: 's', editor: 'html', design: {} },
        content: { html: '<p/>', chunks: {} },
        dynamic_fields: [{ token: 't', field: 'f', aggregator: 'sum' }],
      }),
      idOf: (doc) => doc._id,
    },
    {
      name: 'keystore',
      path: '/~/keystore',
      // A new month per call: one key per type and month.
      valid: async () => ({ month: `20${String(10 + (validKeys++ % 80)).padStart(2, '0')}-01`, encrypted_key: Buffer.alloc(32, 1).toString('base64') }),
      idOf: (doc) => doc._id,
      listBody: true,
    },
  ];

  /** Names JavaScript treats as object machinery: every one must be data or a named 400, never a 500 or a silent drop. */
  const prototypeKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf');
  const memberName = fc.oneof(fc.string({ maxLength: 12 }), prototypeKey);
  const memberValue = fc.oneof(
    fc.jsonValue(),
    fc.constantFrom('Set', 'Map', 'Boolean', 'Number', 'String', 'Object').map((name) => ({ name })),
  );
  const holdsProtoKey = (value: unknown): boolean =>
    typeof value === 'object' && value !== null && (Object.keys(value).includes('__proto__') || Object.values(value).some(holdsProtoKey));

  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

  /**
   * A valid body with one member replaced by arbitrary JSON, removed, or an unknown member added; or
   * one member of the first item of an array of objects (variables[0].name, plans[0].price_ids…)
   * replaced or removed, so checks inside array items are reached too.
   */
  const nearMiss = (valid: Record<string, unknown>) => {
    const keys = Object.keys(valid);
    const itemMembers = keys.flatMap((key) => {
      const items = valid[key];
      return Array.isArray(items) && isObject(items[0]) ? Object.keys(items[0]).map((member) => ({ key, member })) : [];
    });
    const inItems =
      itemMembers.length === 0
        ? []
        : [
            fc.record({ at: fc.constantFrom(...itemMembers), value: fc.option(fc.jsonValue(), { nil: undefined }) }).map(({ at, value }) => {
              const [first, ...others] = valid[at.key] as Record<string, unknown>[];
              const { [at.member]: _replaced, ...kept } = first!;
              return { ...valid, [at.key]: [value === undefined ? kept : { ...kept, [at.member]: value }, ...others] };
            }),
          ];
    return fc.oneof(
      ...inItems,
      fc.record({ key: fc.constantFrom(...keys), value: fc.jsonValue() }).map(({ key, value }) => ({ ...valid, [key]: value })),
      fc.constantFrom(...keys).map((key) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key))),
      fc.record({ key: memberName, value: memberValue }).map(({ key, value }) => withMember(valid, key, value)),
      fc.record({ key: fc.constantFrom(...keys), inner: memberName, value: memberValue }).map(({ key, inner, value }) => {
        const current = valid[key];
        return {
          ...valid,
          [key]:
            typeof current === 'object' && current !== null && !Array.isArray(current)
              ? withMember(current as Record<string, unknown>, inner, value)
              : [current, value],
        };
      }),
    );
  };
  /** A copy with one more own member: defineProperty, so `__proto__` is a member and not the copy's prototype. */
  const withMember = (object: Record<string, unknown>, key: string, value: unknown) =>
    Object.defineProperty({ ...object }, key, { value, enumerable: true, writable: true, configurable: true });
  const bodies = (valid: Record<string, unknown>) => fc.oneof({ arbitrary: fc.jsonValue(), weight: 1 }, { arbitrary: nearMiss(valid), weight: 3 });

  function expectErrorShape(answer: TestResponse): void {
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.error).toMatchObject({ status: answer.status, code: expect.any(String), message: expect.any(String) });
    expect(answer.body.error.details.length).toBeGreaterThan(0);
    for (const detail of answer.body.error.details) expect(typeof detail.field).toBe('string');
  }

  const count = async (path: string) => ((await api('GET', `${path}?take=1000`)).body as unknown[]).length;

  for (const kind of kinds) {
    it(`${kind.name}: create never 500s, refusals name a field and write nothing`, async () => {
      const valid = await kind.valid();
      expect((await api('POST', kind.path, valid)).status).toBe(201);
      await fc.assert(
        fc.asyncProperty(bodies(valid), async (body) => {
          const before = await count(kind.path);
          const answer = await api('POST', kind.path, body);
          // A __proto__ member could only be dropped on the way to the table: it is refused, naming it.
          if (holdsProtoKey(body)) {
            expect(answer.status).toBe(400);
            expect(answer.body.error.details.some((d: { field: string }) => d.field.endsWith('__proto__'))).toBe(true);
          }
          if (answer.status === 201) {
            expect(await count(kind.path)).toBe(before + 1);
            return;
          }
          expectErrorShape(answer);
          expect(await count(kind.path)).toBe(before);
        }),
        { numRuns: 40 },
      );
    });

    it(`${kind.name}: update never 500s and a refused update changes nothing`, async () => {
      const valid = await kind.valid();
      const created = await api('POST', kind.path, valid);
      const path = `${kind.path}/${kind.idOf(created.body)}`;
      // Cohort updates must repeat cohort_type: keep it in most cases so deeper checks are reached.
      const updateBodies =
        kind.name === 'cohorts'
          ? fc
              .tuple(bodies(valid), fc.integer({ min: 0, max: 4 }))
              .map(([b, n]) => (typeof b === 'object' && b !== null && !Array.isArray(b) && n > 0 ? { ...b, cohort_type: 'user' } : b))
          : bodies(valid);
      await fc.assert(
        fc.asyncProperty(updateBodies, async (body) => {
          const before = (await api('GET', path)).body;
          const answer = await api('POST', path, body);
          if (answer.status === 200) return;
          expectErrorShape(answer);
          expect((await api('GET', path)).body).toEqual(before);
        }),
        { numRuns: 30 },
      );
    });
  }

  it('bodies that are not JSON objects get a 400 naming body', async () => {
    const raw = (path: string, text: string) =>
      send(`${rt.credentials.management_url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${rt.credentials.management_token}`, 'content-type': 'application/json' },
        body: text,
      });
    for (const kind of kinds) {
      for (const text of ['', '{', 'null', '[1]', '"x"', '{"a":']) {
        const answer = await raw(kind.path, text);
        expect(answer.status).toBe(400);
        expect(answer.body.error.details[0].field).toBe(kind.listBody && text === '[1]' ? '[0]' : 'body');
      }
    }
  });
});
