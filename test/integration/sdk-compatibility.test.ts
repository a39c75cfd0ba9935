import { startTestRuntime, type TestRuntime } from './support/runtime';

// The open-source SDK of the original service, unmodified, pointed at this collector.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const moesifapi = require('moesifapi');

function call<T>(fn: (callback: (error: unknown, response: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => fn((error, response) => (error ? reject(error) : resolve(response))));
}

describe('the moesifapi SDK works unmodified against the collector', () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime('sdk');
    moesifapi.configuration.BaseUri = rt.credentials.collector_url;
    moesifapi.configuration.ApplicationId = rt.credentials.collector_application_id;
  });
  afterAll(() => rt?.dispose());

  const api = () => moesifapi.ApiController;

  it('sends events (gzip, X-Moesif-Application-Id, camelCase models with nulls) that become searchable', async () => {
    const now = new Date();
    const event = new moesifapi.EventModel({
      request: {
        time: now,
        uri: 'https://api.acmeinc.com/items/83738/reviews/',
        verb: 'PATCH',
        apiVersion: '1.1.0',
        ipAddress: '61.48.220.123',
        headers: { Host: 'api.acmeinc.com', 'Content-Type': 'application/json', Authorization: 'Bearer sdk_token_1' },
        body: { items: [{ direction_type: 1 }] },
      },
      response: {
        time: new Date(now.getTime() + 30),
        status: 500,
        headers: { 'Content-Type': 'application/json' },
        body: { Error: 'InvalidArgumentException' },
      },
      userId: 'sdk-user',
      companyId: 'sdk-company',
      metadata: { foo: 'bar' },
    });
    const response = await call<{ statusCode: number; headers: Record<string, string> }>((cb) => api().createEvent(event, cb));
    expect(response.statusCode).toBe(201);
    expect(response.headers['x-moesif-config-etag']).toMatch(/^[0-9a-f]{32}$/);

    const batch = [1, 2, 3].map(
      (i) =>
        new moesifapi.EventModel({
          request: { time: now, uri: `https://api.acmeinc.com/b/${i}`, verb: 'GET', headers: {} },
          response: { time: now, status: 200, headers: {} },
          userId: `batch-${i}`,
        }),
    );
    expect((await call<{ statusCode: number }>((cb) => api().createEventsBatch(batch, cb))).statusCode).toBe(201);
    await rt.waitUntilConsumed();
    expect(await rt.countEvents()).toBe(4);
  });

  it('sends actions, users, companies and subscriptions', async () => {
    const action = new moesifapi.ActionModel({
      actionName: 'Clicked Sign Up',
      request: { uri: 'https://acmeinc.com/pricing', userAgentString: 'Mozilla/5.0' },
      userId: 'sdk-user',
    });
    expect((await call<{ statusCode: number }>((cb) => api().sendAction(action, cb))).statusCode).toBe(201);

    const user = new moesifapi.UserModel({
      userId: 'sdk-user',
      companyId: 'sdk-company',
      metadata: { email: 'john@acmeinc.com', first_name: 'John' },
      campaign: new moesifapi.CampaignModel({ utmSource: 'google' }),
    });
    expect((await call<{ statusCode: number }>((cb) => api().updateUser(user, cb))).statusCode).toBe(201);
    const company = new moesifapi.CompanyModel({ companyId: 'sdk-company', companyDomain: 'acmeinc.com', metadata: { plan: 'enterprise' } });
    expect((await call<{ statusCode: number }>((cb) => api().updateCompany(company, cb))).statusCode).toBe(201);
    const subscription = new moesifapi.SubscriptionModel({
      subscriptionId: 'sub_sdk',
      companyId: 'sdk-company',
      status: 'active',
      currentPeriodStart: new Date(),
      currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000),
    });
    expect((await call<{ statusCode: number }>((cb) => api().updateSubscription(subscription, cb))).statusCode).toBe(201);

    await rt.waitUntilConsumed();
    const stored = await rt.management('GET', '/search/~/users/sdk-user');
    expect(stored.body._source).toMatchObject({
      user_id: 'sdk-user',
      company_id: 'sdk-company',
      metadata: { email: 'john@acmeinc.com' },
      campaign: { utm_source: 'google' },
    });
    expect((await rt.management('GET', '/search/~/companies/sdk-company')).body._source.company_domain).toBe('acmeinc.com');
  });

  it('reads the app config and the governance rules', async () => {
    const config = await call<{ statusCode: number; body: unknown }>((cb) => api().getAppConfig(cb));
    expect(config.statusCode).toBe(200);
    expect(config.body).toMatchObject({ sample_rate: 100 });
    const rules = await call<{ statusCode: number; body: unknown }>((cb) => api().getRules(cb));
    expect(rules.statusCode).toBe(200);
    expect(rules.body).toEqual([]);
  });
});
