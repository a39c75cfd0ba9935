import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { runBilling } from '../../functions/billing/run/billing-run';
import { ReportStore } from '../../functions/billing/reports/report-store';
import { signCustomerToken } from '../../functions/customer-portal/access/customer-token';
import { routesOf } from '../../functions/definitions/routes';
import type { BillingReport } from '../../schemas/billing/report';
import type { CustomerUsage } from '../../schemas/billing/customer-usage';
import { loadOrCreateSigningKey } from '../../bin/local/bootstrap';
import { Decimal } from '../../values/decimal';
import { billingDeps, GRADUATED_TIERS, HOUR, numberedCalls, tieredPlan } from './support/billing-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Customer access over HTTP, with two customers (acme and globex) and a third with an open period:
 * each customer token reads only its own company's events, usage and bill; everything else it is
 * tried on answers 401; a tampered, expired or revoked token answers 401; the bill estimate of a
 * closed period equals, to the cent, what the billing run then reports (graduated and volume tiers,
 * per-window rounding, a prepaid balance); a spend cap set through the token warns through an alert
 * and blocks through a spend_cap governance rule.
 */
describe('customer access (customer tokens, usage and bill, spend caps)', () => {
  let rt: TestRuntime;
  let slack: Server;
  const slackPosts: unknown[] = [];
  const base = Math.floor(Date.now() / HOUR) * HOUR;
  const hoursAgo = (h: number, minutes = 0) => new Date(base - h * HOUR + minutes * 60_000);
  // A closed period for acme and globex: [base − 7h, base − 1h); an open one for initech around now.
  const closed = { current_period_start: hoursAgo(7).toISOString(), current_period_end: hoursAgo(1).toISOString() };
  const open = { current_period_start: hoursAgo(3).toISOString(), current_period_end: new Date(base + 21 * HOUR).toISOString() };
  let planA: string;
  let planB: string;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};

  const post = (path: string, body: unknown) => rt.management('POST', path, {}, body);
  const mint = async (body: Record<string, unknown>) => {
    const minted = await post('/~/customer_tokens', body);
    expect(minted.status).toBe(201);
    return minted.body as { token: string; usage_url: string; expires_at: string };
  };
  const asCustomer = (token: string, rest = '', method = 'GET', body?: unknown) =>
    rt.management(method, `/public/customers/${encodeURIComponent(token)}${rest}`, { authorization: '' }, body);
  const dataOf = (token: string, workspaceId: string, query = '') => asCustomer(token, `/workspaces/${workspaceId}/data${query}`);
  /** Events a template's answer counted: its by-verb buckets added up. */
  const hitsOf = (answer: { body: { answer: { aggregations: { verbs: { buckets: { doc_count: number }[] } } } } }) =>
    answer.body.answer.aggregations.verbs.buckets.reduce((sum, bucket) => sum + bucket.doc_count, 0);

  beforeAll(async () => {
    rt = await startTestRuntime('customer-access', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
    slack = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk) => (text += chunk));
      request.on('end', () => {
        slackPosts.push(JSON.parse(text));
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => slack.listen(0, '127.0.0.1', resolve));

    planA = await tieredPlan(rt, 'Calls', 'tiered_graduated', GRADUATED_TIERS);
    planB = await tieredPlan(rt, 'Writes', 'tiered_volume', [
      { up_to: 5, unit_price_in_decimal: '0.3' },
      { up_to: 'inf', unit_price_in_decimal: '0.2', flat_price_in_decimal: '2' },
    ]);
    const meter = async (name: string, planId: string, query: unknown, params: Record<string, unknown> = {}) => {
      const created = await post('/~/billing/meters', {
        name,
        slug: name,
        es_query: { query },
        billing_plan: { provider_slug: 'webhook', params: { ...params, webhook_params: { channel_ids: ['ch'], custom_plan: { plan_id: planId } } } },
      });
      expect(created.status).toBe(201);
      return created.body._id as string;
    };
    ids['calls'] = await meter('calls', planA, { match_all: {} });
    // Writes bill half a unit each, every window rounded up on its own.
    ids['writes'] = await meter('writes', planB, { term: { 'request.verb': 'POST' } }, { usage_multiplier: 0.5, usage_rounding_mode: 'up' });

    expect(
      (
        await rt.collect('/v1/subscriptions/batch', [
          { subscription_id: 'sub-acme', company_id: 'acme', status: 'active', items: [{ plan_id: planA }, { plan_id: planB }], ...closed },
          { subscription_id: 'sub-globex', company_id: 'globex', status: 'active', items: [{ plan_id: planA }], ...closed },
          { subscription_id: 'sub-initech', company_id: 'initech', status: 'active', items: [{ plan_id: planA }], ...open },
        ])
      ).status,
    ).toBe(201);
    const credit = await post('/~/billing/reports/balance_transactions', {
      company_id: 'acme',
      subscription_id: 'sub-acme',
      transaction_id: 'prepaid-1',
      amount: '5.00',
      type: 'credit',
    });
    expect(credit.status).toBe(204);

    const call = numberedCalls();
    const get = (company: string, time: Date, extra: Record<string, unknown> = {}) => call({ company_id: company, ...extra }, time);
    const write = (company: string, time: Date, extra: Record<string, unknown> = {}) =>
      call({ company_id: company, request: { time: time.toISOString(), uri: 'https://api.example.com/v1/orders', verb: 'POST', headers: {} }, ...extra }, time);
    const events = [
      // acme: 14 reads over four windows, some naming the subscription; 3 + 3 + 1 writes in three windows (2 + 2 + 1 billed).
      ...Array.from({ length: 14 }, (_, i) =>
        get('acme', hoursAgo(6 - (i % 4), i + 1), { user_id: i % 2 === 0 ? 'u-acme-1' : 'u-acme-2', ...(i % 3 === 0 ? { subscription_id: 'sub-acme' } : {}) }),
      ),
      ...[0, 1, 2].map((i) => write('acme', hoursAgo(5, 10 + i), { user_id: 'u-acme-1' })),
      ...[0, 1, 2].map((i) => write('acme', hoursAgo(4, 10 + i), { user_id: 'u-acme-2' })),
      write('acme', hoursAgo(3, 30), { user_id: 'u-acme-1' }),
      ...[0, 1, 2].map((i) => get('globex', hoursAgo(5, 20 + i), { user_id: 'u-globex' })),
      ...[0, 1, 2, 3].map((i) => get('initech', hoursAgo(2, 5 + i))),
      ...[0, 1].map((i) => get('initech', hoursAgo(1, 5 + i))),
    ];
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed();

    const policy = { acl: [], resource: {} };
    const workspace = async (key: string, fields: Record<string, unknown>) => {
      const created = await post('/~/workspaces', { name: key, policy, ...fields });
      expect(created.status).toBe(201);
      ids[key] = created.body._id;
    };
    const byVerb = { size: 0, aggs: { verbs: { terms: { field: 'request.verb', size: 10 } } } };
    await workspace('company-calls', {
      chart: { view: 'table', url_query: '', from: '-24h', to: 'now', es_query: byVerb },
      template: { dynamic_fields: ['company_id'], dynamic_time: true },
    });
    await workspace('user-calls', {
      chart: { view: 'table', url_query: '', from: '-24h', to: 'now', es_query: byVerb },
      template: { dynamic_fields: ['user_id'] },
    });
    await workspace('everyone', { chart: { view: 'table', url_query: '', es_query: byVerb }, template: { dynamic_fields: [] } });
    await workspace('internal', { chart: { view: 'table', url_query: '', es_query: byVerb } });

    tokens['acme'] = (
      await mint({
        company_id: 'acme',
        time_ranges: [
          { from: '-24h', to: 'now' },
          { from: '-7d', to: 'now' },
        ],
      })
    ).token;
    tokens['globex'] = (await mint({ company_id: 'globex' })).token;
    tokens['initech'] = (await mint({ company_id: 'initech' })).token;
  }, 120_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => (slack ? slack.close(() => resolve()) : resolve()));
    await rt?.dispose();
  });

  it('mints a token that names its customer and opens the usage page, storing nothing', async () => {
    const minted = await mint({ company_id: 'acme', expires_in: 600 });
    expect(minted.token).toMatch(/^ct1\./);
    expect(minted.usage_url).toMatch(/\/console\/customer\/ct1\./);
    expect(Date.parse(minted.expires_at) - Date.now()).toBeGreaterThan(590_000);
    const refused = await post('/~/customer_tokens', { company_id: 'acme', templates: [ids['internal']], expires_in: 10, values: { company_id: 'x' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((d: { field: string }) => d.field)).toContain('expires_in');
    const notTemplate = await post('/~/customer_tokens', { company_id: 'acme', templates: [ids['internal']] });
    expect(notTemplate.body.error.details).toEqual([{ field: 'templates[0]', reason: 'the workspace is not a template' }]);
  });

  it("shows each customer its templates with its own values bound, and each template's data only for its own company", async () => {
    const view = await asCustomer(tokens['acme']!);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ company_id: 'acme', values: { company_id: 'acme' } });
    // The user_id template needs a value acme's token does not bind; a template without dynamic fields is never opened.
    expect(view.body.templates.map((t: { _id: string }) => t._id)).toEqual([ids['company-calls']]);
    expect(view.body.templates[0]).not.toHaveProperty('policy');

    const acme = await dataOf(tokens['acme']!, ids['company-calls']!);
    expect(acme.status).toBe(200);
    expect(hitsOf(acme)).toBe(21);
    expect(hitsOf(await dataOf(tokens['globex']!, ids['company-calls']!))).toBe(3);
    // A dynamic time: the second range the token allows.
    expect(hitsOf(await dataOf(tokens['acme']!, ids['company-calls']!, '?range=1'))).toBe(21);

    const forUser = (await mint({ company_id: 'acme', values: { user_id: 'u-acme-1' } })).token;
    expect(hitsOf(await dataOf(forUser, ids['user-calls']!))).toBe(11);
  });

  it("never opens another company's events through bound values, and mints no token for another company's subscription", async () => {
    // A token of acme bound to globex's user: the template's own filter would find globex's 3 events; the token's company keeps them out.
    const intruder = (await mint({ company_id: 'acme', values: { user_id: 'u-globex' } })).token;
    const answer = await dataOf(intruder, ids['user-calls']!);
    expect(answer.status).toBe(200);
    expect(hitsOf(answer)).toBe(0);
    const refused = await post('/~/customer_tokens', { company_id: 'acme', subscription_id: 'sub-globex' });
    expect([refused.status, refused.body.error.details]).toEqual([
      400,
      [{ field: 'subscription_id', reason: 'is a subscription of another company, not of acme' }],
    ]);
    const unknown = await post('/~/customer_tokens', { company_id: 'acme', subscription_id: 'sub-nobody' });
    expect([unknown.status, unknown.body.error.details[0].field]).toEqual([400, 'subscription_id']);
    // Its own subscription: the template data narrows to the events naming it (5 of acme's 14 reads).
    const own = (await mint({ company_id: 'acme', subscription_id: 'sub-acme' })).token;
    expect(hitsOf(await dataOf(own, ids['company-calls']!))).toBe(5);
  });

  it('answers 401 for any workspace, range or other route the token does not open, and 400 for a parameter it would ignore', async () => {
    const refusals: [string, string, string][] = [
      [ids['internal']!, '', 'is not a template workspace'],
      [ids['everyone']!, '', 'has no dynamic fields (it would show every customer the same data)'],
      [ids['user-calls']!, '', 'has dynamic field user_id the token binds no value to'],
      ['0123456789abcdef01234567', '', 'is not a template this token opens'],
    ];
    for (const [workspaceId, query, reason] of refusals) {
      const refused = await dataOf(tokens['acme']!, workspaceId, query);
      expect([workspaceId, refused.status, refused.body.error.details]).toEqual([workspaceId, 401, [{ field: 'workspaceId', reason }]]);
    }
    expect((await dataOf(tokens['acme']!, ids['company-calls']!, '?range=2')).status).toBe(401);
    // A template whose time is not dynamic allows its own range only.
    const forUser = (await mint({ company_id: 'acme', values: { user_id: 'u-acme-1' } })).token;
    expect((await dataOf(forUser, ids['user-calls']!, '?range=1')).status).toBe(401);
    const narrowed = (await mint({ company_id: 'acme', values: { user_id: 'u-acme-1' }, templates: [ids['user-calls']] })).token;
    expect((await dataOf(narrowed, ids['company-calls']!)).body.error.details).toEqual([
      { field: 'workspaceId', reason: 'is not a template this token opens' },
    ]);
    const ignored = await dataOf(tokens['acme']!, ids['company-calls']!, '?company_id=globex');
    expect([ignored.status, ignored.body.error.details[0].field]).toEqual([400, 'company_id']);
    expect((await asCustomer(tokens['acme']!, '/usage?company_id=globex')).status).toBe(400);
    for (const name of ['__proto__', 'constructor', 'toString']) {
      const odd = await asCustomer(tokens['acme']!, `/usage?${name}=1`);
      expect([name, odd.status, odd.body.error.details[0].field]).toEqual([name, 400, name]);
    }

    // Every other route of the management API, with the token as bearer and as any {token} parameter.
    for (const route of routesOf({ api: 'management' })) {
      if (route.auth.kind === 'none' || route.auth.kind === 'customer-token') continue;
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'token' ? encodeURIComponent(tokens['acme']!) : 'x'));
      const answer = await rt.management(route.method, path, { authorization: `Bearer ${tokens['acme']}` }, route.method === 'GET' ? undefined : {});
      expect([route.method, route.path, answer.status]).toEqual([route.method, route.path, 401]);
    }
  }, 120_000);

  it('never shows a customer data of another, whatever workspace, range and parameters it tries (property)', async () => {
    const workspaces = [ids['company-calls']!, ids['user-calls']!, ids['everyone']!, ids['internal']!];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('acme', 'globex'),
        fc.oneof(fc.constantFrom(...workspaces), fc.stringMatching(/^[0-9a-f]{24}$/)),
        fc.option(fc.oneof(fc.integer({ min: 0, max: 12 }).map(String), fc.string({ maxLength: 4 }))),
        fc.option(fc.constantFrom('company_id', 'user_id', 'from', 'q')),
        async (company, workspaceId, range, extra) => {
          const params = new URLSearchParams();
          if (range !== null) params.set('range', range);
          if (extra !== null) params.set(extra, 'globex');
          const answer = await dataOf(tokens[company]!, workspaceId, params.size > 0 ? `?${params}` : '');
          expect([400, 401]).toContain(answer.status === 200 ? 401 : answer.status);
          if (answer.status === 200) expect(hitsOf(answer)).toBe(company === 'acme' ? 21 : 3);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('answers 401 to a tampered, expired or revoked token, and a revocation ends only the tokens issued before it', async () => {
    const [prefix, payload, signature] = tokens['acme']!.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const forged = `${prefix}.${Buffer.from(JSON.stringify({ ...claims, company_id: 'globex' })).toString('base64url')}.${signature}`;
    expect((await asCustomer(forged, '/usage')).body.error.details).toEqual([{ field: 'token', reason: 'has an invalid signature' }]);
    const key = await loadOrCreateSigningKey(rt.dataDir);
    const expired = signCustomerToken({ ...claims, exp: Math.floor(Date.now() / 1000) - 1 }, key);
    expect((await asCustomer(expired)).body.error.details).toEqual([{ field: 'token', reason: 'has expired' }]);
    // A shared-view token is not a customer token, nor the reverse.
    expect((await rt.management('GET', `/public/views/${tokens['acme']}`, { authorization: '' })).status).toBe(401);

    const revoked = await rt.management('PUT', '/~/customer_tokens/revocations/acme');
    expect(revoked.status).toBe(200);
    expect((await asCustomer(tokens['acme']!)).body.error.details).toEqual([{ field: 'token', reason: 'has been revoked' }]);
    expect((await asCustomer(tokens['globex']!)).status).toBe(200);
    const fresh = (await mint({ company_id: 'acme' })).token;
    expect((await asCustomer(fresh)).status).toBe(200);
    expect((await rt.management('GET', '/~/customer_tokens/revocations')).body).toEqual([expect.objectContaining({ company_id: 'acme' })]);
    expect((await rt.management('DELETE', '/~/customer_tokens/revocations/acme')).status).toBe(204);
    expect((await asCustomer(tokens['acme']!)).status).toBe(200);
    expect((await rt.management('DELETE', '/~/customer_tokens/revocations/acme')).status).toBe(404);
  });

  it('estimates a closed period to the cent of what the billing run then reports, tiers, per-window rounding and balance included', async () => {
    const closedStart = encodeURIComponent(closed.current_period_start);
    const before = await asCustomer(tokens['acme']!, `/usage?period_start=${closedStart}`);
    expect(before.status).toBe(200);
    const usage: CustomerUsage = before.body;
    expect(usage.subscriptions).toEqual([
      {
        subscription_id: 'sub-acme',
        status: 'active',
        // Ended, but not every window of it reported yet: the run waits a grace period after each one.
        period: { start: closed.current_period_start, end: closed.current_period_end, closed: true, status: 'in_grace' },
        balance: { available: expect.any(String), after_estimate: expect.any(String) },
      },
    ]);
    const line = (meter: string) => usage.meters.find((m) => m.billing_meter_id === ids[meter])!;
    // Calls: 21 → 10 × 0.10 + 11 × 0.05 + 1 flat = 2.55 (graduated). Writes: ⌈1.5⌉ + ⌈1.5⌉ + ⌈0.5⌉ = 5 → 5 × 0.30 = 1.50 (volume).
    expect([line('calls').usage, Number(line('calls').amount), Number(line('calls').estimated_amount)]).toEqual([21, 2.55, 2.55]);
    expect([line('writes').usage, Number(line('writes').amount), Number(line('writes').estimated_amount)]).toEqual([5, 1.5, 1.5]);
    expect(line('calls').daily.reduce((sum, day) => sum + day.usage, 0)).toBe(21);
    expect(usage.totals.map((t) => [t.currency, Number(t.estimated_amount)])).toEqual([['usd', 4.05]]);
    expect([Number(usage.subscriptions[0]!.balance!.available), Number(usage.subscriptions[0]!.balance!.after_estimate)]).toEqual([5, 0.95]);
    expect(usage.invoices).toEqual([]);

    const run = await runBilling({ now: new Date(), ...billingDeps(rt, () => new Map(), { settings: { backfillMs: 8 * HOUR } }) });
    expect(run.errors).toEqual([]);
    const reports = new ReportStore(rt.clients.documents, rt.names.tables.billing);
    const tenant = { orgId: rt.credentials.org_id, appId: rt.credentials.app_id };
    const billed = async (meter: string, subscription: string) => {
      const { windows } = await reports.listWindows(tenant, { from: hoursAgo(8), to: new Date(), meterId: ids[meter]!, maxWindows: 100 });
      const own = windows.flatMap((w) => [...w.reports]).filter((r: BillingReport) => r.subscription_id === subscription);
      expect(own.every((r) => r.subscription_period_start === closed.current_period_start || subscription === 'sub-initech')).toBe(true);
      return Decimal.sum(own.map((r) => Decimal.from(r.amount_exact ?? '0'))).toString();
    };
    expect(await billed('calls', 'sub-acme')).toBe(Decimal.from(line('calls').estimated_amount!).toString());
    expect(await billed('writes', 'sub-acme')).toBe(Decimal.from(line('writes').estimated_amount!).toString());
    const globex: CustomerUsage = (await asCustomer(tokens['globex']!, `/usage?period_start=${closedStart}`)).body;
    expect(globex.meters.map((m) => [m.billing_meter_id, m.usage, Number(m.estimated_amount)])).toEqual([[ids['calls'], 3, 0.3]]);
    expect(await billed('calls', 'sub-globex')).toBe(Decimal.from(globex.meters[0]!.estimated_amount!).toString());

    // The run drew the reported amounts from the balance: what the estimate said would be left is left.
    const after: CustomerUsage = (await asCustomer(tokens['acme']!, `/usage?period_start=${closedStart}`)).body;
    expect(Number(after.subscriptions[0]!.balance!.available)).toBe(0.95);
    expect(Number(after.subscriptions[0]!.balance!.after_estimate)).toBe(0.95);
    expect(after.totals).toEqual(usage.totals);
    // The closed period is now an invoice, as the run reported it.
    expect(after.invoices.map((invoice) => [invoice.subscription_id, invoice.period_start, invoice.period_end, invoice.totals])).toEqual([
      [
        'sub-acme',
        closed.current_period_start,
        closed.current_period_end,
        [{ currency: 'usd', amount: Decimal.from(usage.totals[0]!.estimated_amount).toString() }],
      ],
    ]);
    expect(after.invoices[0]!.meters.map((m) => [m.billing_meter_id, m.usage]).sort()).toEqual(
      [
        [ids['calls'], 21],
        [ids['writes'], 5],
      ].sort(),
    );
    // Every window of the period is reported now: final.
    expect(after.subscriptions[0]!.period.status).toBe('final');
    expect(after.invoices[0]).toMatchObject({ status: 'final', late_corrections: 0 });
  }, 120_000);

  it('projects an open period from its rate so far', async () => {
    const answer = await asCustomer(tokens['initech']!, '/usage');
    expect(answer.status).toBe(200);
    const usage: CustomerUsage = answer.body;
    expect(usage.subscriptions[0]!.period).toEqual({ start: open.current_period_start, end: open.current_period_end, closed: false, status: 'open' });
    const calls = usage.meters.find((m) => m.billing_meter_id === ids['calls'])!;
    expect(calls.usage).toBe(6);
    const elapsed = Date.parse(usage.generated_at) - Date.parse(open.current_period_start);
    expect(calls.estimated_usage).toBe(Math.round((6 * 24 * HOUR) / elapsed));
    expect(Number(calls.estimated_amount)).toBeGreaterThanOrEqual(Number(calls.amount));
    expect((await asCustomer(tokens['initech']!, '/usage?period_start=2020-01-15T00:00:00Z')).body.error.details[0].field).toBe('period_start');
  });

  it('takes a spend cap from the customer, warns through an alert and blocks through a spend_cap rule', async () => {
    const invalid = await asCustomer(tokens['initech']!, '/spend_cap', 'PUT', { budget: '-1', currency: 'dollars', extra: 1 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['budget', 'currency', 'extra']);
    expect((await asCustomer(tokens['initech']!, '/spend_cap')).status).toBe(404);
    // A currency the catalog prices nothing in: such a cap could never be reached.
    const unpriced = await asCustomer(tokens['initech']!, '/spend_cap', 'PUT', { budget: '10', currency: 'XYZ' });
    expect([unpriced.status, unpriced.body.error.details]).toEqual([
      400,
      [{ field: 'currency', reason: 'the catalog has no price in xyz (it prices in usd)' }],
    ]);

    const set = await asCustomer(tokens['initech']!, '/spend_cap', 'PUT', { budget: '0.5', currency: 'usd', warn_at_percent: 50, hard_cap: true });
    expect(set.status).toBe(200);
    // 6 calls × 0.10 = 0.60 so far: past the warning and the cap.
    expect(set.body).toMatchObject({ company_id: 'initech', budget: '0.5', currency: 'usd', spent: '0.6', used_percent: 120, warning: true, capped: true });
    expect(set.body.period_end).toBe(open.current_period_end);
    expect((await asCustomer(tokens['globex']!, '/spend_cap')).status).toBe(404);

    const rule = await post('/~/governance/rules', { name: 'Spend caps', type: 'company', state: 1, block: true, model: 'spend_cap' });
    expect(rule.status).toBe(201);
    await rt.governance.refreshApp(rt.credentials.org_id, rt.credentials.app_id);
    const config = await rt.collectorGet('/v1/config');
    expect(JSON.stringify(config.body.company_rules['initech'])).toContain(rule.body._id);
    expect(config.body.company_rules['acme']).toBeUndefined();
    const rules = await rt.collectorGet('/v1/rules');
    expect(rules.body.find((r: { _id: string }) => r._id === rule.body._id).response).toMatchObject({ status: 402 });

    const alert = await post('/~/alerts', {
      name: 'Customer spend',
      state: 1,
      metric: 'spend_cap_used_percent',
      window_minutes: 60,
      interval_minutes: 1,
      condition: { type: 'static', operator: 'above', threshold: 90 },
      channels: { slack_urls: [`http://127.0.0.1:${(slack.address() as AddressInfo).port}/slack`] },
    });
    expect(alert.status).toBe(201);
    expect(await rt.alerts.runOnce()).toMatchObject({ fired: 1 });
    expect(slackPosts).toEqual([{ text: expect.stringContaining('Customer spend fired for initech: spend_cap_used_percent 120 (threshold 50)') }]);

    expect((await asCustomer(tokens['initech']!, '/spend_cap', 'DELETE')).status).toBe(204);
    await rt.governance.refreshApp(rt.credentials.org_id, rt.credentials.app_id);
    expect((await rt.collectorGet('/v1/config')).body.company_rules['initech']).toBeUndefined();
  }, 120_000);
});
