import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { AppRegistry } from '../../functions/resources/app-registry';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * The registries scheduled jobs walk, on DynamoDB Local: a job that listed an app and found nothing
 * to do forgets it, unless the app was remembered again meanwhile (an alert created between the
 * job's listing and its forget stays visited).
 */
describe('app registry', () => {
  let rt: TestRuntime;
  let registry: AppRegistry;
  beforeAll(async () => {
    rt = await startTestRuntime('app-registry');
    registry = new AppRegistry(rt.clients.documents, rt.names.tables.resources, 'REGISTRY#TEST');
  });
  afterAll(() => rt?.dispose());

  it('keeps an app remembered after the listing its forget was based on', async () => {
    await registry.remember('org1', 'app1');
    const [listed] = await registry.list();
    expect(listed).toMatchObject({ org_id: 'org1', app_id: 'app1', token: expect.any(String) });
    // Created meanwhile, in the same transaction as its rule.
    await rt.clients.documents.send(new TransactWriteCommand({ TransactItems: [registry.rememberItem('org1', 'app1')] }));
    await registry.forgetListed(listed!);
    expect(await registry.list()).toEqual([expect.objectContaining({ org_id: 'org1', app_id: 'app1' })]);
    // Listed again with nothing remembered since: forgotten.
    const [again] = await registry.list();
    await registry.forgetListed(again!);
    expect(await registry.list()).toEqual([]);
  });

  it('runs a new alert although a run forgot its app while it was being created', async () => {
    // A run lists the app (registered by an earlier alert), finds no rules, and forgets it after the create.
    await rt.management('POST', '/~/alerts', {}, alertBody('Earlier')).then((created) => rt.management('DELETE', `/~/alerts/${created.body._id}`));
    const registryOfAlerts = rt.stores.alertingApps;
    const [listed] = (await registryOfAlerts.list()).filter((app) => app.app_id === rt.credentials.app_id);
    expect(listed).toBeDefined();
    const created = await rt.management('POST', '/~/alerts', {}, alertBody('Errors'));
    expect(created.status).toBe(201);
    await registryOfAlerts.forgetListed(listed!);
    expect((await registryOfAlerts.list()).map((app) => app.app_id)).toContain(rt.credentials.app_id);
  });
});

const alertBody = (name: string) => ({
  name,
  state: 1,
  metric: 'count',
  query: { range: { 'response.status': { gte: 500 } } },
  window_minutes: 60,
  interval_minutes: 60,
  condition: { type: 'static', operator: 'above', threshold: 2 },
  channels: { emails: ['oncall@x.test'] },
});
