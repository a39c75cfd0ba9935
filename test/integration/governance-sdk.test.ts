import { randomBytes } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { appRulesPartition, RULE_CONFIG_SORT_KEY } from '../../functions/resources/keys';
import { RULE_CONFIG_CHUNK_BYTES, RuleConfigStore } from '../../functions/governance/rule-config-store';
import type { RuleAssignments } from '../../schemas/governance';
import { eventually, send, searchBackends, startTestRuntime, type TestResponse, type TestRuntime } from './support/runtime';
import { startMoesifApp } from './support/moesif-app';

/**
 * Governance rules reach the real SDK: the unmodified moesif-nodejs middleware in an Express app,
 * pointed at the local collector, blocks what the rules created through the management API say —
 * a regex rule by route, and a user rule by cohort membership computed from profiles.
 */

describe.each(searchBackends())('governance rules applied by the moesif-nodejs middleware on $name', ({ search }) => {
  let rt: TestRuntime;
  let moesifApp: Awaited<ReturnType<typeof startMoesifApp>> | undefined;
  let apiUrl: string;
  let userRuleId: string;
  let regexRuleId: string;
  let etagBefore: string | null;

  const callApi = (path: string, userId?: string): Promise<TestResponse> => send(`${apiUrl}${path}`, { headers: userId ? { 'x-user-id': userId } : {} });
  const v1 = (path: string) => `/v1${path}`;

  beforeAll(async () => {
    // A short schedule: the last test relies on it alone (no management call) to pick up a new member.
    rt = await startTestRuntime('governance', { governanceRefreshMs: 1000, search: search() });
    for (const user of [
      { user_id: 'banned-user', metadata: { plan: 'banned', email: 'banned@example.com' } },
      { user_id: 'good-user', metadata: { plan: 'free', email: 'good@example.com' } },
    ]) {
      expect((await rt.collect('/v1/users', user)).status).toBe(201);
    }
    await rt.waitUntilConsumed();
    etagBefore = (await rt.collectorGet('/v1/config')).headers.get('x-moesif-config-etag');

    const cohort = await rt.management(
      'POST',
      v1('/~/cohorts'),
      {},
      { cohort_name: 'Banned users', cohort_type: 'user', criteria: { term: { 'metadata.plan.raw': 'banned' } } },
    );
    expect(cohort.status).toBe(201);
    const cohortId = String(cohort.body._id ?? cohort.body.id);

    const userRule = await rt.management(
      'POST',
      v1('/~/governance/rules'),
      {},
      {
        name: 'Block banned users',
        type: 'user',
        state: 1,
        block: true,
        cohorts: [{ id: cohortId }],
        variables: [{ name: '0', path: 'metadata.email' }],
        applied_to: 'matching',
        response: { status: 403, headers: { 'X-Blocked-Account': '{{0}}' }, body: { error: 'Account {{0}} is blocked' } },
      },
    );
    expect(userRule.status).toBe(201);
    userRuleId = String(userRule.body._id ?? userRule.body.id);

    const regexRule = await rt.management(
      'POST',
      v1('/~/governance/rules'),
      {},
      {
        name: 'Block /blocked',
        type: 'regex',
        state: 1,
        block: true,
        regex_config: [{ conditions: [{ path: 'request.route', value: '^/blocked' }] }],
        response: { status: 429, headers: { 'Retry-After': '60' }, body: { error: 'This route is blocked' } },
      },
    );
    expect(regexRule.status).toBe(201);
    regexRuleId = String(regexRule.body._id ?? regexRule.body.id);

    // A disabled rule is stored but never reaches SDKs.
    const disabled = await rt.management(
      'POST',
      v1('/~/governance/rules'),
      {},
      {
        name: 'Disabled',
        type: 'regex',
        state: 0,
        block: true,
        regex_config: [{ conditions: [{ path: 'request.route', value: '.*' }] }],
        response: { status: 500, body: { error: 'should never apply' } },
      },
    );
    expect(disabled.status).toBe(201);

    moesifApp = await startMoesifApp({
      applicationId: rt.credentials.collector_application_id,
      baseUri: rt.credentials.collector_url,
      identifyUser: (req: { headers: Record<string, string | undefined> }) => req.headers['x-user-id'],
    });
    apiUrl = moesifApp.url;
  });

  afterAll(async () => {
    await moesifApp?.close();
    await rt?.dispose();
  });

  it('GET /v1/rules answers the enabled rules in the SDKs’ shape', async () => {
    const rules = await rt.collectorGet('/v1/rules');
    expect(rules.status).toBe(200);
    expect(rules.body.map((r: { _id: string }) => r._id).sort()).toEqual([userRuleId, regexRuleId].sort());
    expect(rules.body.find((r: { _id: string }) => r._id === userRuleId)).toEqual({
      _id: userRuleId,
      name: 'Block banned users',
      type: 'user',
      block: true,
      applied_to: 'matching',
      applied_to_unidentified: false,
      variables: [{ name: '0', path: 'metadata.email' }],
      regex_config: [],
      response: { status: 403, headers: { 'X-Blocked-Account': '{{0}}' }, body: { error: 'Account {{0}} is blocked' } },
    });
  });

  it('GET /v1/config lists cohort members under user_rules with their variable values, and its ETag changed', async () => {
    const config = await rt.collectorGet('/v1/config');
    expect(config.status).toBe(200);
    expect(config.body.user_rules).toEqual({ 'banned-user': [{ rules: userRuleId, values: { '0': 'banned@example.com' } }] });
    expect(config.body.company_rules).toEqual({});
    expect(config.headers.get('x-moesif-config-etag')).toMatch(/^[0-9a-f]{32}$/);
    expect(config.headers.get('x-moesif-config-etag')).not.toBe(etagBefore);
  });

  it('a request matching the regex rule gets the rule’s response; other routes pass', async () => {
    const blocked = await eventually(
      () => callApi('/blocked/thing'),
      (r) => r.status === 429,
    );
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ error: 'This route is blocked' });
    expect(blocked.headers.get('retry-after')).toBe('60');

    const passed = await callApi('/allowed');
    expect(passed.status).toBe(200);
    expect(passed.body).toEqual({ ok: true });
  });

  it('a user in the rule’s cohort is blocked with the variables filled in; others pass', async () => {
    const blocked = await eventually(
      () => callApi('/allowed', 'banned-user'),
      (r) => r.status === 403,
    );
    expect(blocked.status).toBe(403);
    expect(blocked.body).toEqual({ error: 'Account banned@example.com is blocked' });
    expect(blocked.headers.get('x-blocked-account')).toBe('banned@example.com');

    expect((await callApi('/allowed', 'good-user')).status).toBe(200);
    expect((await callApi('/allowed')).status).toBe(200);
  });

  it('a profile that enters the cohort later is listed by the scheduled refresh, without any management call', async () => {
    expect((await rt.collect('/v1/users', { user_id: 'late-user', metadata: { plan: 'banned', email: 'late@example.com' } })).status).toBe(201);
    await rt.waitUntilConsumed();
    const config = await eventually(
      () => rt.collectorGet('/v1/config'),
      (r) => r.body.user_rules['late-user'] !== undefined,
    );
    expect(config.body.user_rules['late-user']).toEqual([{ rules: userRuleId, values: { '0': 'late@example.com' } }]);
  });

  it('refuses a rule whose regex backtracks catastrophically, or with too many conditions, with a 400 naming the member', async () => {
    const slow = await rt.management(
      'POST',
      v1('/~/governance/rules'),
      {},
      {
        name: 'Hangs the SDK',
        type: 'regex',
        state: 1,
        block: true,
        regex_config: [{ conditions: [{ path: 'request.route', value: '^(a|b|c)*0-0-0(x+x+)+y$' }] }],
      },
    );
    expect(slow.status).toBe(400);
    expect(slow.body.error.details).toEqual([
      expect.objectContaining({ field: 'regex_config[0].conditions[0].value', reason: expect.stringMatching(/exponential time/) }),
    ]);
    // Polynomial is refused too (16.7 s on 25 characters in Node), and so is the same pattern in an app's sampling rules.
    const quadratic = { path: 'request.route', value: '.*.*.*.*.*.*.*.*.*.*=.*$' };
    const polynomial = await rt.management(
      'POST',
      v1('/~/governance/rules'),
      {},
      { name: 'Slow too', type: 'regex', state: 1, block: true, regex_config: [{ conditions: [quadratic] }] },
    );
    expect([polynomial.status, polynomial.body.error.details[0].reason]).toEqual([400, expect.stringMatching(/polynomial/)]);
    const sampling = await rt.management('POST', v1(`/~/apps/${rt.credentials.app_id}`), {}, { regex_config: [{ conditions: [quadratic], sample_rate: 50 }] });
    expect([sampling.status, sampling.body.error.details[0].field]).toEqual([400, 'regex_config[0].conditions[0].value']);

    const many = await rt.management(
      'POST',
      v1('/~/governance/rules'),
      {},
      {
        name: 'Too many conditions',
        type: 'regex',
        state: 1,
        block: true,
        regex_config: Array.from({ length: 3 }, () => ({ conditions: Array.from({ length: 20 }, (_, i) => ({ path: 'request.route', value: `^/r${i}$` })) })),
      },
    );
    expect(many.status).toBe(400);
    expect(many.body.error.details).toEqual([{ field: 'regex_config', reason: 'over 50 conditions' }]);
  });

  it('deleting the rule empties the membership at once (the change hook refreshes)', async () => {
    expect((await rt.management('DELETE', v1(`/~/governance/rules/${userRuleId}`))).status).toBeLessThan(300);
    const config = await rt.collectorGet('/v1/config');
    expect(config.body.user_rules).toEqual({});
    expect((await rt.collectorGet('/v1/rules')).body.map((r: { _id: string }) => r._id)).toEqual([regexRuleId]);
  });
});

describe('the membership snapshot store', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('governance-store', { governanceRefreshMs: 0 });
  });
  afterAll(() => rt?.dispose());

  it('chunks a snapshot past one item’s size, reads it back whole, and removes the chunks when replaced', async () => {
    const table = rt.names.tables.resources;
    const store = new RuleConfigStore(rt.clients.documents, table, { cacheTtlMs: 0 });
    const reader = new RuleConfigStore(rt.clients.documents, table, { cacheTtlMs: 0 });
    const { org_id: orgId, app_id: appId } = rt.credentials;
    // Random values barely compress: about 2.5 chunks of gzip.
    const big: RuleAssignments = { user_rules: {}, company_rules: {}, user_sample_rate: {}, company_sample_rate: {} };
    for (let i = 0; big.user_rules && i < Math.ceil((RULE_CONFIG_CHUNK_BYTES * 2.5) / 150); i++) {
      big.user_rules[`user-${i}`] = [{ rules: 'r1', values: { '0': randomBytes(150).toString('base64') } }];
    }
    const chunkItems = async () =>
      (
        await rt.clients.documents.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': appRulesPartition(orgId, appId), ':prefix': `${RULE_CONFIG_SORT_KEY}#` },
          }),
        )
      ).Items ?? [];

    const written = await store.write(orgId, appId, big);
    expect(written.changed).toBe(true);
    expect((await chunkItems()).length).toBeGreaterThanOrEqual(2);
    const read = await reader.read(orgId, appId);
    expect(read.hash).toBe(written.snapshot.hash);
    expect(read.assignments).toEqual(big);

    expect((await store.write(orgId, appId, big)).changed).toBe(false);

    const small: RuleAssignments = {
      user_rules: { alice: [{ rules: 'r1', values: {} }] },
      company_rules: {},
      user_sample_rate: { alice: 10 },
      company_sample_rate: {},
    };
    const replaced = await store.write(orgId, appId, small);
    expect(replaced.changed).toBe(true);
    expect(await chunkItems()).toEqual([]);
    expect(await reader.read(orgId, appId)).toEqual({ hash: replaced.snapshot.hash, tag: replaced.snapshot.tag, assignments: small });
  });
});
