import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { GOVERNED_APPS_PARTITION, appRulesPartition } from '../../functions/resources/keys';
import { PURGE_PARTITION, INLINE_PURGE_ITEMS } from '../../functions/resources/app-purge';
import { batchWrite } from '../../functions/shared/aws/batch-write';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/** Deleting an app removes everything in its partition, in bounded batches, on the real emulators. */
describe('deleting an app', () => {
  let rt: TestRuntime;

  beforeAll(async () => {
    rt = await startTestRuntime('app-deletion', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
  });
  afterAll(() => rt?.dispose());

  const orgId = () => rt.credentials.org_id;
  const table = () => rt.names.tables.resources;
  const as = (token: string | undefined, method: string, path: string, body?: unknown) =>
    rt.management(method, path, token ? { authorization: `Bearer ${token}` } : {}, body);
  const partitionCount = async (appId: string) => {
    let count = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await rt.clients.documents.send(
        new QueryCommand({
          TableName: table(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': appRulesPartition(orgId(), appId) },
          Select: 'COUNT',
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      count += page.Count ?? 0;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return count;
  };
  const item = async (pk: string, sk: string) =>
    (await rt.clients.documents.send(new GetCommand({ TableName: table(), Key: { pk, sk }, ConsistentRead: true }))).Item;
  const newApp = async (name: string) => {
    const created = await as(undefined, 'POST', '/~/apps', { name });
    expect(created.status).toBe(201);
    const appId = created.body.id as string;
    return { appId, collectorId: created.body.collector_application_id as string, token: await rt.issueToken({ app_id: appId }) };
  };
  const created = async (token: string, path: string, body: unknown) => {
    const answer = await as(token, 'POST', path, body);
    expect([path, answer.status]).toEqual([path, 201]);
    return answer.body as { _id: string };
  };

  it('removes every resource, the membership snapshot and the registry entry; the app is gone and its tokens cannot refill it', async () => {
    const { appId, collectorId, token } = await newApp('Doomed');
    const cohort = await created(token, '/~/cohorts', {
      cohort_name: 'Blocked',
      cohort_type: 'user',
      criteria: { query: { term: { 'user_id.raw': 'mallory' } } },
    });
    await created(token, '/~/governance/rules', {
      name: 'Block',
      type: 'user',
      state: 1,
      block: true,
      cohorts: [{ id: cohort._id }],
      applied_to: 'matching',
      response: { status: 403 },
      variables: [],
    });
    const workspace = await created(token, '/~/workspaces', {
      name: 'Errors',
      policy: { acl: [], resource: {} },
      chart: { view: 'segmentation', url_query: '' },
    });
    await created(token, `/~/workspaces/${workspace._id}/comments`, { message: 'look' });
    await created(token, '/~/dashboards', { name: 'Ops', workspace_ids: [[workspace._id]] });
    await created(token, '/~/keystore', { month: '2026-11', encrypted_key: Buffer.alloc(32, 1).toString('base64') });
    const gone = await created(token, '/~/cohorts', { cohort_name: 'Temporary', cohort_type: 'company', criteria: { query: { match_all: {} } } });
    expect((await as(token, 'DELETE', `/~/cohorts/${gone._id}`)).status).toBe(204);
    // The rule's membership was computed on the change: a snapshot header and a registry entry exist.
    expect(await item(appRulesPartition(orgId(), appId), 'CONFIG#RULES')).toBeDefined();
    expect(await item(GOVERNED_APPS_PARTITION, `${orgId()}#${appId}`)).toBeDefined();
    expect(await partitionCount(appId)).toBeGreaterThanOrEqual(9);

    expect((await as(undefined, 'DELETE', `/~/apps/${appId}`)).status).toBe(204);

    expect(await partitionCount(appId)).toBe(0);
    expect(await item(GOVERNED_APPS_PARTITION, `${orgId()}#${appId}`)).toBeUndefined();
    expect(await item(PURGE_PARTITION, `${orgId()}#${appId}`)).toBeUndefined();
    expect((await as(undefined, 'GET', `/~/apps/${appId}`)).status).toBe(410);
    expect((await rt.collectorGet('/v1/config', { 'x-service-application-id': collectorId })).status).toBe(401);
    // A token of the deleted app reads an empty app and cannot write into it.
    expect((await as(token, 'GET', '/~/cohorts')).body).toEqual([]);
    const refill = await as(token, 'POST', '/~/cohorts', { cohort_name: 'Late', cohort_type: 'user', criteria: { query: { match_all: {} } } });
    expect(refill.status).toBe(410);
    expect(refill.body.error.code).toBe('gone');
    expect((await as(token, 'POST', '/~/keystore', { month: '2026-12', encrypted_key: Buffer.alloc(32, 2).toString('base64') })).status).toBe(410);
    expect(await partitionCount(appId)).toBe(0);
    // A later refresh of the deleted app writes nothing for it.
    await rt.governance.refreshApp(orgId(), appId);
    expect(await partitionCount(appId)).toBe(0);
  });

  it('purges a large app in bounded batches: the request does a part, reads keep working, the schedule finishes', async () => {
    const { appId, token } = await newApp('Large');
    await created(token, '/~/cohorts', { cohort_name: 'Someone', cohort_type: 'user', criteria: { query: { term: { 'user_id.raw': 'x' } } } });
    const filler = 1_500;
    const now = new Date().toISOString();
    await batchWrite(
      rt.clients.documents,
      table(),
      Array.from({ length: filler }, (_, i) => {
        const id = `0000000${String(i).padStart(5, '0')}00000000`;
        return {
          PutRequest: {
            Item: {
              pk: appRulesPartition(orgId(), appId),
              sk: `KEY#${id}`,
              _id: id,
              org_id: orgId(),
              app_id: appId,
              month: '2026-01',
              type: `t${i}`,
              encrypted_key: 'AAAAAAAAAAAAAAAAAAAAAA==',
              fingerprint: '0',
              created_at: now,
              modified_at: now,
            },
          },
        };
      }),
    );
    // The filler, the cohort and the (empty) membership header its creation computed.
    expect(await partitionCount(appId)).toBe(filler + 2);
    // What the bounded part leaves: the header goes first and is not counted in the budget.
    const left = filler + 1 - INLINE_PURGE_ITEMS;

    expect((await as(undefined, 'DELETE', `/~/apps/${appId}`)).status).toBe(204);
    expect(await partitionCount(appId)).toBe(left);
    expect(await item(PURGE_PARTITION, `${orgId()}#${appId}`)).toMatchObject({ org_id: orgId(), app_id: appId });
    // Half-purged: the app is 410, its leftovers read without errors.
    expect((await as(undefined, 'GET', `/~/apps/${appId}`)).status).toBe(410);
    const keys = await as(token, 'GET', '/~/keystore?take=1000');
    expect(keys.status).toBe(200);
    expect(keys.body.length).toBe(left);
    expect((await as(token, 'GET', '/~/cohorts')).status).toBe(200);

    const { purges } = await rt.governance.refreshAll();
    expect(purges).toContainEqual({ org_id: orgId(), app_id: appId, deleted: left, done: true });
    expect(await partitionCount(appId)).toBe(0);
    expect(await item(PURGE_PARTITION, `${orgId()}#${appId}`)).toBeUndefined();
    expect((await as(token, 'GET', '/~/keystore')).body).toEqual([]);
  });
});
