import * as fc from 'fast-check';
import { startTestRuntime, type TestRuntime, type TestResponse } from './support/runtime';

/**
 * Property tests of what this service sends and shares: arbitrary JSON, near-misses of valid bodies
 * and odd tokens thrown at the signed-token, shared-view, email and ABI endpoints. Never a 500, every
 * 4xx in the error shape naming a field, and a refused create stores nothing.
 */
describe('signed tokens, shared views, emails and ABIs under fuzzed input', () => {
  let rt: TestRuntime;
  let workspaceId = '';
  let templateId = '';
  const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => rt.management(method, path, headers, body);
  const wellFormed4xx = (answer: TestResponse) => {
    expect(answer.status).toBeLessThan(500);
    if (answer.status >= 400) {
      expect(answer.body.error).toMatchObject({ status: answer.status, code: expect.any(String), message: expect.any(String) });
      if (answer.status === 400) expect(answer.body.error.details.length).toBeGreaterThan(0);
    }
  };

  beforeAll(async () => {
    rt = await startTestRuntime('speaking-fuzz', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
    workspaceId = (
      await api('POST', '/~/workspaces', { name: 'W', policy: { acl: [], resource: {} }, chart: { view: 'table', url_query: '', es_query: { size: 0 } } })
    ).body._id;
    templateId = (
      await api('POST', '/~/emails/templates', {
        name: 'T',
        state: 0,
        addresses: { from: 'a@b.test', cc: [], bcc: [] },
        cohorts: [],
        template: { subject: 's', editor: 'html', design: {} },
        content: { html: '<p>{{x}}</p>', chunks: {} },
      })
    ).body._id;
  });
  afterAll(() => rt?.dispose());

  const nearMisses = (valid: Record<string, unknown>) =>
    fc.oneof(
      fc.jsonValue(),
      fc.record({ key: fc.constantFrom(...Object.keys(valid), 'extra'), value: fc.jsonValue() }).map(({ key, value }) => ({ ...valid, [key]: value })),
    );

  it('creates signed tokens, or refuses them naming the field, and stores nothing when refused', async () => {
    const before = (await api('GET', '/~/workspaces/public')).body.length;
    let created = 0;
    await fc.assert(
      fc.asyncProperty(nearMisses({ time_ranges: [{ from: '-1d', to: 'now' }], expires_in: 3600, time_zone: 'UTC', description: 'x' }), async (body) => {
        const answer = await api('POST', `/~/workspaces/${workspaceId}/signed_tokens`, body);
        wellFormed4xx(answer);
        if (answer.status === 201) created += 1;
      }),
      { numRuns: 60 },
    );
    expect((await api('GET', '/~/workspaces/public')).body.length).toBe(before + created);
  });

  it("answers any token and any range in a shared view's path with a 4xx, never a 500", async () => {
    const token = (await api('POST', `/~/workspaces/${workspaceId}/signed_tokens`, {})).body.token as string;
    const text = fc.string({ unit: fc.constantFrom(...'sv1.abcXYZ_-0123~%!'.split('')), maxLength: 120 });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          text,
          fc.constant(token),
          text.map((t) => `${token}${t}`),
        ),
        fc.oneof(fc.constant(workspaceId), text),
        fc.oneof(fc.constant('0'), text),
        async (candidate, workspace, range) => {
          const answer = await rt.management(
            'GET',
            `/public/views/${encodeURIComponent(candidate)}/workspaces/${encodeURIComponent(workspace)}/data?range=${encodeURIComponent(range)}`,
            { authorization: '' },
          );
          wellFormed4xx(answer);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('refuses bad test-send and unsubscribe bodies with a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(nearMisses({ to: 'a@b.test', user_id: 'u1' }), async (body) => {
        wellFormed4xx(await api('POST', `/~/emails/templates/${templateId}/test`, body));
      }),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), fc.jsonValue(), async (token, body) => {
        wellFormed4xx(await rt.management('POST', `/public/emails/unsubscribe/${encodeURIComponent(token || 'x')}`, { authorization: '' }, body));
      }),
      { numRuns: 40 },
    );
  });

  it('stores ABIs or refuses them naming the item, and stores nothing when refused', async () => {
    const valid = {
      address: '0x1111111111111111111111111111111111111111',
      abi: [{ type: 'function', name: 'f', inputs: [{ name: 'a', type: 'uint256' }], outputs: [] }],
    };
    const item = fc.record(
      {
        type: fc.constantFrom('function', 'event', 'x', 3),
        name: fc.oneof(fc.string(), fc.constant(undefined)),
        inputs: fc.oneof(
          fc.array(fc.record({ name: fc.string(), type: fc.constantFrom('uint256', 'address', 'tuple', 'uint999', 'bytes32[]', '') })),
          fc.jsonValue(),
        ),
      },
      { requiredKeys: [] },
    );
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(nearMisses(valid), fc.array(item, { maxLength: 4 }), fc.record({ abi: fc.array(item, { minLength: 1, maxLength: 4 }) })),
        async (body) => {
          const answer = await api('POST', '/~/eth_abi', body);
          wellFormed4xx(answer);
          if (answer.status === 201) stored += 1;
        },
      ),
      { numRuns: 80 },
    );
    expect((await api('GET', '/~/eth_abi?take=1000')).body.length).toBe(stored);
  });
});
