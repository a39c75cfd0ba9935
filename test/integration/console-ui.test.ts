import { mkdir, readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ensureConsoleBuilt } from '../../bin/local/console-build';
import { apiCall, eventually, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * The web console in a real browser (Debian's Chromium, driven by playwright-core) against the real
 * local runtime: sign in, see an event just sent through the collector appear in the live stream,
 * open it, build a chart, save it as a workspace and reopen it by URL, and sign out (which revokes
 * the token). Screenshots of the pages go to test-artifacts/console/.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = resolve(__dirname, '../../test-artifacts/console');

describe('web console', () => {
  let rt: TestRuntime;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  let consoleUrl: string;
  /** The time-series workspace the chart test saves; the dashboard test lays it out. */
  let timeSeriesWorkspaceUrl = '';

  beforeAll(async () => {
    await ensureConsoleBuilt();
    await mkdir(SCREENSHOTS, { recursive: true });
    rt = await startTestRuntime('console-ui', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
    consoleUrl = `${rt.credentials.management_url}/console`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    // One context, like one browser profile: its tabs share the session cookie.
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await rt?.dispose();
  });

  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  /** axe-core's serious and critical WCAG 2 A/AA violations on the page as it is now. */
  async function seriousViolations() {
    await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
    const violations = await page.evaluate<{ id: string; impact: string; nodes: unknown[] }[]>(
      "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target) })))",
    );
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  }

  it('sends an unsigned visitor to sign-in, with the local org pre-filled, and signs in with the password flow', async () => {
    const missing: string[] = [];
    page.on('response', (answer) => {
      if (answer.status() === 404) missing.push(answer.url());
    });
    await page.goto(`${consoleUrl}/events`);
    await page.waitForURL(/\/console\/sign-in$/);
    // The page names its icon, so the browser does not ask the origin for /favicon.ico (a 404).
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    const served = await fetch(new URL(icon!, page.url()));
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(missing).toEqual([]);
    expect(await page.inputValue('input[name="org_id"]')).toBe(rt.credentials.org_id);
    await page.fill('input[name="password"]', 'not the password');
    await page.fill('input[name="username"]', rt.credentials.admin_username!);
    await page.click('button[type="submit"]');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/password/i);
    await page.fill('input[name="password"]', rt.credentials.admin_password!);
    await shot('sign-in');
    // The page signed in to loads while the form is filled in, so it shows at once: never the
    // page-loading fallback, which React keeps on screen for at least 300 ms.
    await page.waitForFunction(`performance.getEntriesByType('resource').some((entry) => /\\/assets\\/events-page-[^/]+\\.js$/.test(entry.name))`, undefined, {
      timeout: 30_000,
    });
    await page.evaluate(`new MutationObserver(() => {
      if (document.body.textContent.includes('Loading the page')) window.__pageFallbackShown = true;
    }).observe(document.body, { childList: true, subtree: true, characterData: true })`);
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/console\/events$/);
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor({ timeout: 30_000 });
    expect(await page.evaluate('window.__pageFallbackShown === true')).toBe(false);
    // The token is in the page's memory only: not in the URL, not in storage. The session is an HttpOnly cookie.
    expect(page.url()).not.toMatch(/token|eyJ/);
    expect(await page.evaluate<number>('sessionStorage.length + localStorage.length')).toBe(0);
    expect(await page.evaluate<string>('document.cookie')).toBe('');
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({ name: 'console_session', path: '/oauth/console_session', httpOnly: true, sameSite: 'Strict' });
  }, 60_000);

  it('stays signed in in a new tab and after a reload, without the password', async () => {
    const before = (await page.context().cookies())[0]!.value;
    const tab = await page.context().newPage();
    await tab.goto(`${consoleUrl}/customers`);
    await tab.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(tab.url()).toMatch(/\/console\/customers$/);
    await tab.reload();
    await tab.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(tab.url()).toMatch(/\/console\/customers$/);
    await tab.close();
    // Each restore rotated the cookie: the one from sign-in is no longer the session's.
    expect((await page.context().cookies())[0]!.value).not.toBe(before);
  }, 60_000);

  it('shows an event sent through the collector in the live stream, without a reload, and opens it', async () => {
    const route = `/console-test/${uuid(1).slice(0, 8)}`;
    const sent = await rt.collect(
      '/v1/events',
      apiCall({
        transaction_id: uuid(77),
        request: {
          time: new Date().toISOString(),
          uri: `https://api.example.com${route}`,
          verb: 'POST',
          headers: { 'content-type': 'application/json' },
          body: { order: 42 },
        },
        response: { time: new Date().toISOString(), status: 201, headers: {}, body: { id: 'ord_1' } },
        user_id: 'console-user',
        company_id: 'console-co',
      }),
    );
    expect(sent.status).toBe(201);
    const row = page.getByRole('link', { name: new RegExp(`POST ${route}`) });
    await row.waitFor({ timeout: 30_000 });
    await shot('event-stream');
    await row.click();
    await page.waitForURL(/\/console\/events\/[^/?]+/);
    await page.getByRole('region', { name: 'Request' }).waitFor();
    await expect(page.getByLabel('Request body').textContent()).resolves.toContain('"order": 42');
    await expect(page.getByLabel('Response body').textContent()).resolves.toContain('ord_1');
    await expect(page.getByRole('link', { name: 'console-user' }).count()).resolves.toBe(1);
    await shot('event');
    // A deep link reloads to the same event.
    await page.reload();
    await page.getByRole('region', { name: 'Request' }).waitFor();
  }, 60_000);

  it('creates, edits and deletes virtual event types, then filters the events page by one and counts what the API counts', async () => {
    await page.goto(`${consoleUrl}/events`);
    await page.getByRole('link', { name: 'Virtual event types' }).click();
    const form = page.getByRole('form', { name: 'New event type' });
    await form.locator('input[name="type_name"]').fill('Console posts');
    await form.locator('textarea[name="type_criteria"]').fill('request.verb:POST');
    await form
      .getByRole('status')
      .filter({ hasText: /^[1-9][\d,]* events of the last 7 days match\.$/ })
      .waitFor({ timeout: 30_000 });
    await form.getByRole('button', { name: 'Create event type' }).click();
    await page.getByRole('button', { name: 'Edit Console posts' }).waitFor();
    await page.getByRole('button', { name: 'Edit Console posts' }).click();
    const edit = page.getByRole('form', { name: 'Edit event type Console posts' });
    await edit.locator('input[name="type_description"]').fill('Every POST the console test sends');
    await edit.getByRole('button', { name: 'Save event type' }).click();
    await page.getByRole('cell', { name: 'Every POST the console test sends' }).waitFor();
    await form.locator('input[name="type_name"]').fill('Short-lived');
    await form.locator('textarea[name="type_criteria"]').fill('{"term": {"request.verb": "DELETE"}}');
    await form.getByRole('button', { name: 'Create event type' }).click();
    await shot('virtual-event-types');
    expect(await seriousViolations()).toEqual([]);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete Short-lived' }).click();
    await page.getByRole('button', { name: 'Delete Short-lived' }).waitFor({ state: 'detached' });
    const stored = (await rt.management('GET', '/~/virtual_eventtypes')).body as { name: string; description?: string; criteria: unknown }[];
    expect(stored).toEqual([
      expect.objectContaining({
        name: 'Console posts',
        description: 'Every POST the console test sends',
        criteria: { query_string: { query: 'request.verb:POST' } },
      }),
    ]);
    const counted = await rt.management('POST', '/search/~/count/events?from=-7d&to=now', {}, { query: { term: { virtual_event_types: 'Console posts' } } });
    expect(counted.body.count).toBeGreaterThan(0);
    await page.goto(`${consoleUrl}/events?from=-7d`);
    const filters = page.getByRole('form', { name: 'Event filters' });
    await filters.getByLabel('Query').fill('virtual_event_types:"Console posts"');
    await filters.getByLabel('Query').press('Enter');
    await page.waitForURL(/[?&]q=/);
    // The same number the API counts: the query bar's query_string reaches virtual event types.
    await page.getByText(`${Number(counted.body.count).toLocaleString('en-US')} events in range`).waitFor({ timeout: 30_000 });
  }, 60_000);

  it('draws a time-series chart, saves it as a workspace and draws it again from its URL', async () => {
    await page.goto(`${consoleUrl}/charts/new?metric=count&interval=1h&from=-24h`);
    await page.getByRole('img', { name: /Event count per 1h/ }).waitFor({ timeout: 30_000 });
    await page.fill('input[name="workspace_name"]', 'Calls per hour');
    await page.click('button:has-text("Save as workspace")');
    await page.waitForURL(/\/console\/workspaces\/[^/]+$/);
    const workspaceUrl = page.url();
    timeSeriesWorkspaceUrl = workspaceUrl;
    await page.goto(workspaceUrl);
    await page.getByRole('heading', { name: 'Calls per hour' }).waitFor();
    await page.getByRole('img', { name: /Event count per 1h/ }).waitFor({ timeout: 30_000 });
    await shot('workspace');
    const id = decodeURIComponent(workspaceUrl.split('/').pop()!);
    const stored = await rt.management('GET', `/~/workspaces/${id}`);
    expect(stored.body.chart).toMatchObject({ view: 'time_series', from: '-24h', to: 'now', time_zone: 'UTC' });
    expect(stored.body.chart.es_query.aggs.over_time.date_histogram).toMatchObject({
      field: 'request.time',
      fixed_interval: '1h',
      extended_bounds: { min: 'now-24h', max: 'now' },
    });
  }, 60_000);

  it('opens on an overview: calls, error rate and latency, top routes, customers and clients, calls by country', async () => {
    const route = '/overview-test/orders';
    const call = (n: number, ip: string, status: number, userAgent: string) =>
      apiCall({
        transaction_id: uuid(300 + n),
        request: { time: new Date().toISOString(), uri: `https://api.example.com${route}`, verb: 'GET', ip_address: ip, headers: { 'user-agent': userAgent } },
        response: { time: new Date(Date.now() + 30).toISOString(), status, headers: {} },
        company_id: 'overview-co',
      });
    const calls = [call(1, '81.2.69.142', 200, 'curl/8.4.0'), call(2, '81.2.69.142', 500, 'curl/8.4.0'), call(3, '8.8.8.8', 200, 'python-requests/2.31.0')];
    expect((await rt.collect('/v1/events/batch', calls)).status).toBe(201);
    await rt.waitUntilConsumed();
    const counted = await rt.management(
      'POST',
      '/search/~/search/events?from=-24h&to=now',
      {},
      { size: 0, track_total_hits: true, query: { term: { event_type: 'api_call' } } },
    );
    const total = (counted.body as { hits: { total: number } }).hits.total;

    await page.goto(`${consoleUrl}/`);
    await page.waitForURL(/\/console\/overview$/);
    const calls24h = page.getByRole('figure', { name: 'API calls' });
    await calls24h.waitFor({ timeout: 30_000 });
    expect(Number((await calls24h.locator('output').textContent())!.replace(/[^0-9]/g, ''))).toBe(total);
    await page.getByRole('figure', { name: 'Error rate' }).waitFor();
    await page.getByRole('figure', { name: 'p90 latency' }).waitFor();
    await page
      .getByRole('table', { name: 'Top routes' })
      .getByRole('row', { name: new RegExp(route) })
      .waitFor();
    await expect(
      page
        .getByRole('table', { name: 'Top routes' })
        .getByRole('row', { name: new RegExp(route) })
        .textContent(),
    ).resolves.toMatch(/3.*33\.3%/);
    await page.getByRole('table', { name: 'Top customers' }).getByRole('link', { name: 'overview-co' }).waitFor();
    const clients = page.getByRole('table', { name: 'Top clients' });
    // Other tests' calls say curl too (the helper's default header): python-requests is this test's alone.
    await expect(clients.getByRole('row', { name: /python-requests/ }).textContent()).resolves.toMatch(/python-requests\s*1\s*0%/);
    await clients.getByRole('row', { name: /curl/ }).waitFor();
    const countries = page.getByRole('table', { name: 'Calls by country' });
    await expect(countries.getByRole('row', { name: /United Kingdom/ }).textContent()).resolves.toMatch(/United Kingdom\s*GB\s*2/);
    await countries.getByRole('row', { name: /United States/ }).waitFor();
    await page.getByRole('link', { name: 'IP Geolocation by DB-IP' }).waitFor();
    await page
      .getByRole('img', { name: /Calls and errors/ })
      .locator('canvas')
      .waitFor({ timeout: 30_000 });
    expect(await seriousViolations()).toEqual([]);
    await shot('overview');
  }, 60_000);

  it('draws a funnel and a retention table, from the URL and from the settings form', async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    const events = [
      apiCall({ transaction_id: uuid(81), user_id: 'funnel-a', metadata: { stage: 'signup' } }, daysAgo(2)),
      apiCall({ transaction_id: uuid(82), user_id: 'funnel-a', metadata: { stage: 'use' } }, daysAgo(1)),
      apiCall({ transaction_id: uuid(83), user_id: 'funnel-b', metadata: { stage: 'signup' } }, daysAgo(2)),
    ];
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed();
    await page.goto(
      `${consoleUrl}/charts/new?view=funnel&from=-7d&to=now&time_zone=UTC&by=user_id&window=7d&step=${encodeURIComponent('metadata.stage:signup')}&step=${encodeURIComponent('metadata.stage:use')}`,
    );
    const funnel = page.getByRole('table', { name: /Funnel of users/ });
    await funnel.waitFor({ timeout: 30_000 });
    await expect(funnel.getByRole('row', { name: /1\. metadata\.stage:signup/ }).textContent()).resolves.toMatch(/2.*100%.*1 \(50%\)/);
    await expect(funnel.getByRole('row', { name: /2\. metadata\.stage:use/ }).textContent()).resolves.toMatch(/1.*50%/);
    // Drawn as a funnel too, its steps as the table counts them.
    await page.getByRole('img', { name: 'Funnel of users: metadata.stage:signup 2, metadata.stage:use 1' }).locator('canvas').waitFor({ timeout: 30_000 });
    await shot('funnel');

    await page.selectOption('select[name="view"]', 'retention');
    await page.fill('input[name="first"]', 'metadata.stage:signup');
    await page.fill('input[name="return"]', 'metadata.stage:use');
    await page.selectOption('select[name="every"]', 'day');
    await page.fill('input[name="periods"]', '3');
    await page.click('button:has-text("Draw")');
    const retention = page.getByRole('table', { name: /Retention of users by day/ });
    await retention.waitFor({ timeout: 30_000 });
    // The cohort of two days ago: two users, one back the next day.
    await expect(retention.locator('tbody tr').filter({ hasText: '50%' }).first().textContent()).resolves.toMatch(/2\s*50%/);
    // The average row weighs cohorts by size, and the curve draws it.
    await expect(retention.locator('tfoot tr').textContent()).resolves.toMatch(/^Average \(weighted by cohort size\)2\s*50%/);
    await page.getByRole('img', { name: 'Retention curve of users by day' }).locator('canvas').waitFor({ timeout: 30_000 });
    await shot('retention');
    await page.fill('input[name="workspace_name"]', 'Sign-up retention');
    await page.click('button:has-text("Save as workspace")');
    await page.waitForURL(/\/console\/workspaces\/[^/]+$/);
    await page.getByRole('table', { name: /Retention of users by day/ }).waitFor({ timeout: 30_000 });
    const stored = await rt.management('GET', `/~/workspaces/${decodeURIComponent(page.url().split('/').pop()!)}`);
    expect(stored.body.chart).toMatchObject({
      view: 'retention',
      view_elements: { retention_query: { interval: 'day', periods: 3, first_event: { query_string: { query: 'metadata.stage:signup' } } } },
    });
  }, 90_000);

  it('groups by any field as top values, and builds filters and funnel steps by picking fields and values', async () => {
    // Five hours back: inside the last day these checks read, and older than the window the billing
    // test below bills and opens first (its newest report must stay that window's).
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const calls = [
      apiCall(
        {
          transaction_id: uuid(9101),
          user_id: 'pick-a',
          request: { time: minutesAgo(330).toISOString(), uri: 'https://api.example.com/items/195', verb: 'GET', headers: {} },
          metadata: { plan: 'pro' },
        },
        minutesAgo(330),
      ),
      apiCall(
        {
          transaction_id: uuid(9102),
          user_id: 'pick-b',
          request: { time: minutesAgo(329).toISOString(), uri: 'https://api.example.com/items/104', verb: 'GET', headers: {} },
          metadata: { plan: 'pro' },
        },
        minutesAgo(329),
      ),
      apiCall(
        {
          transaction_id: uuid(9103),
          user_id: 'pick-c',
          request: { time: minutesAgo(328).toISOString(), uri: 'https://api.example.com/items/7', verb: 'GET', headers: {} },
          metadata: { plan: 'free' },
        },
        minutesAgo(328),
      ),
    ];
    expect((await rt.collect('/v1/events/batch', calls)).status).toBe(201);
    const actions = [
      ['pick-a', 'Signed Up', 320],
      ['pick-b', 'Signed Up', 319],
      ['pick-c', 'Signed Up', 318],
      ['pick-a', 'Upgraded Plan', 310],
    ] as const;
    const sent = await rt.collect(
      '/v1/actions/batch',
      actions.map(([user, name, ago], i) => ({
        transaction_id: uuid(9105 + i),
        user_id: user,
        action_name: name,
        request: { uri: 'https://app.example.com/', time: minutesAgo(ago).toISOString() },
      })),
    );
    expect(sent.status).toBe(201);
    await rt.waitUntilConsumed();
    const count = async (query: string) =>
      (await rt.management('POST', '/search/~/count/events?from=-24h&to=now', {}, { query: { query_string: { query } } })).body.count as number;

    // Top values as totals: the route template groups the three item calls into one row.
    await page.goto(`${consoleUrl}/charts/new?view=top_values&display=table&from=-24h&to=now`);
    const routes = page.getByRole('table', { name: /Event count of the top 5 values of request\.route\.raw/ });
    await routes.waitFor({ timeout: 30_000 });
    const items = await count('request.route.raw:"/items/:id"');
    expect(items).toBeGreaterThanOrEqual(3);
    await expect(routes.getByRole('row', { name: /^\/items\/:id/ }).textContent()).resolves.toMatch(new RegExp(`^/items/:id${items}`));
    // Any field, here a metadata key picked from the catalogue, drawn as a pie.
    const settings = page.getByRole('form', { name: 'Chart settings' });
    await settings.getByLabel('Group by').fill('metadata.plan.raw');
    await page.locator('datalist option[value="metadata.plan.raw"]').first().waitFor({ state: 'attached', timeout: 30_000 });
    await settings.locator('select[name="display"]').selectOption('pie');
    await settings.getByRole('button', { name: 'Draw' }).click();
    await page
      .getByRole('img', {
        name: new RegExp(`top 5 values of metadata\\.plan\\.raw: pro ${await count('metadata.plan.raw:pro')}, free ${await count('metadata.plan.raw:free')}`),
      })
      .locator('canvas')
      .waitFor({ timeout: 30_000 });
    await shot('top-values');
    expect(await seriousViolations()).toEqual([]);

    // A virtual event type picked as a chart's filter, and as a funnel step: the API's numbers.
    const week = async (query: string) =>
      (await rt.management('POST', '/search/~/count/events?from=-7d&to=now', {}, { query: { query_string: { query } } })).body.count as number;
    await page.goto(`${consoleUrl}/charts/new?view=metric&from=-7d&to=now`);
    const chartPicker = page.getByRole('group', { name: 'Build a chart condition from the data' });
    await chartPicker.getByLabel('Field').fill('virtual_event_types');
    await chartPicker.getByLabel('Value').fill('console');
    await chartPicker.locator('datalist option[value="Console posts"]').waitFor({ state: 'attached', timeout: 30_000 });
    await chartPicker.getByLabel('Value').fill('Console posts');
    await chartPicker.getByRole('button', { name: 'Add filter' }).click();
    await page.getByRole('button', { name: 'Draw' }).click();
    const posts = await week('virtual_event_types:"Console posts"');
    expect(posts).toBeGreaterThan(0);
    await page
      .locator('figure.single-number output')
      .filter({ hasText: new RegExp(`^${posts.toLocaleString('en-US')}$`) })
      .waitFor({ timeout: 30_000 });
    await page.goto(
      `${consoleUrl}/charts/new?view=funnel&from=-7d&to=now&by=user_id&window=7d&step=${encodeURIComponent('virtual_event_types:"Console posts"')}&step=`,
    );
    const typed = await rt.management(
      'POST',
      '/search/~/funnels/events?from=-7d&to=now',
      {},
      { conversion_window: '7d', steps: [{ query: { term: { virtual_event_types: 'Console posts' } } }, { query: { match_all: {} } }] },
    );
    expect(typed.body.steps[0].entered).toBeGreaterThan(0);
    await expect(
      page
        .getByRole('table', { name: /Funnel of users/ })
        .getByRole('row', { name: /^1\. virtual_event_types/ })
        .textContent(),
    ).resolves.toMatch(new RegExp(`^1\\. virtual_event_types:"Console posts"${typed.body.steps[0].entered}`));

    // A filter picked from the action names the data holds, with type-ahead.
    await page.goto(`${consoleUrl}/events?from=-24h`);
    const picker = page.getByRole('group', { name: 'Build a condition from the data' });
    await picker.getByLabel('Field').fill('action_name.raw');
    await picker.getByLabel('Value').fill('Sig');
    await picker.locator('datalist option[value="Signed Up"]').waitFor({ state: 'attached', timeout: 30_000 });
    expect(await picker.locator('datalist option[value="Upgraded Plan"]').count()).toBe(0);
    await picker.getByLabel('Value').fill('Signed Up');
    await picker.getByRole('button', { name: 'Add filter' }).click();
    const filters = page.getByRole('form', { name: 'Event filters' });
    await expect(filters.getByLabel('Query').inputValue()).resolves.toBe('action_name.raw:"Signed Up"');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await page.getByText(`${await count('action_name.raw:"Signed Up"')} events in range`).waitFor({ timeout: 30_000 });

    // Funnel steps picked the same way, each into the step it names.
    await page.goto(`${consoleUrl}/charts/new?view=funnel&from=-24h&to=now&by=user_id&window=1d&step=&step=`);
    const steps = page.getByRole('group', { name: 'Build a step condition from the data' });
    await steps.getByLabel('Field').fill('action_name.raw');
    await steps.getByLabel('Value').fill('Signed Up');
    await steps.getByRole('button', { name: 'Add filter' }).click();
    await steps.getByLabel('Add to').selectOption('Step 2');
    await steps.getByLabel('Value').fill('Upgraded Plan');
    await steps.getByRole('button', { name: 'Add filter' }).click();
    await expect(page.locator('input[name="step_1"]').inputValue()).resolves.toBe('action_name.raw:"Upgraded Plan"');
    await page.getByRole('button', { name: 'Draw' }).click();
    const api = await rt.management(
      'POST',
      '/search/~/funnels/events?from=-24h&to=now',
      {},
      {
        conversion_window: '1d',
        steps: [{ query: { term: { 'action_name.raw': 'Signed Up' } } }, { query: { term: { 'action_name.raw': 'Upgraded Plan' } } }],
      },
    );
    const [signedUp, upgraded] = api.body.steps.map((step: { entered: number }) => step.entered) as [number, number];
    expect([signedUp, upgraded]).toEqual([3, 1]);
    await page
      .getByRole('img', { name: `Funnel of users: action_name.raw:"Signed Up" ${signedUp}, action_name.raw:"Upgraded Plan" ${upgraded}` })
      .locator('canvas')
      .waitFor({ timeout: 30_000 });
    await shot('funnel-picked-steps');
  }, 120_000);

  it("names the app's own route templates on the Apps page, refusing a bad one beside the field", async () => {
    await page.goto(`${consoleUrl}/apps`);
    // The ingest backlog, as GET /~/ingest/backlog measures it: nothing waiting between tests.
    await page.getByRole('status', { name: 'Ingest backlog' }).getByText('Everything the collector acknowledged is searchable.').waitFor();
    const form = page.getByRole('form', { name: 'Route templates' });
    await form.getByLabel('Route templates').fill('/handles/:handle\nhandles/:x');
    await form.getByRole('button', { name: 'Save route templates' }).click();
    await form.getByText('route_templates[1]', { exact: true }).waitFor();
    await form.getByLabel('Route templates').fill('/handles/:handle\n/orders/:order_id/items/:item_id');
    await form.getByRole('button', { name: 'Save route templates' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved 2 route templates.' }).waitFor();
    expect((await rt.management('GET', `/~/apps/${rt.credentials.app_id}`)).body.route_templates).toEqual([
      '/handles/:handle',
      '/orders/:order_id/items/:item_id',
    ]);
    await shot('route-templates');
  }, 60_000);

  it('sets how many days the app keeps its events on the Apps page, and back to keeping every event', async () => {
    await page.goto(`${consoleUrl}/apps`);
    const form = page.getByRole('form', { name: 'Data retention' });
    await form.getByLabel('Keep every event').uncheck();
    await form.getByLabel('Days to keep events').fill('90');
    await form.getByRole('button', { name: 'Save data retention' }).click();
    await form.getByRole('status').filter({ hasText: 'Events are kept for 90 days.' }).waitFor();
    expect((await rt.management('GET', `/~/apps/${rt.credentials.app_id}`)).body.data_retention_days).toBe(90);
    await shot('data-retention');
    await form.getByLabel('Keep every event').check();
    await form.getByRole('button', { name: 'Save data retention' }).click();
    await form.getByRole('status').filter({ hasText: 'Every event is kept.' }).waitFor();
    expect((await rt.management('GET', `/~/apps/${rt.credentials.app_id}`)).body.data_retention_days).toBeNull();
  }, 60_000);

  it('finds a customer and shows the profile with its usage and recent events', async () => {
    expect(
      (
        await rt.collect('/v1/users', {
          user_id: 'console-user',
          company_id: 'console-co',
          metadata: { email: 'ada@example.com', name: 'Ada Lovelace', plan: 'pro' },
        })
      ).status,
    ).toBe(201);
    expect((await rt.collect('/v1/companies', { company_id: 'console-co', metadata: { name: 'Console Co' } })).status).toBe(201);
    await rt.waitUntilConsumed();
    await page.goto(`${consoleUrl}/customers?kind=users&q=${encodeURIComponent('ada@example.com')}`);
    await page.getByRole('link', { name: 'Open user console-user' }).click();
    await page.waitForURL(/\/console\/users\/console-user$/);
    await page.getByLabel('Profile metadata').filter({ hasText: 'Ada Lovelace' }).waitFor();
    await page
      .getByRole('region', { name: 'Recent events' })
      .getByRole('link', { name: /POST \/console-test\// })
      .waitFor();
    await page.getByRole('img', { name: /Event count per 1d/ }).waitFor({ timeout: 30_000 });
    await shot('user');
    await page.getByRole('link', { name: 'console-co' }).first().click();
    await page.waitForURL(/\/console\/companies\/console-co$/);
    await page.getByLabel('Profile metadata').filter({ hasText: 'Console Co' }).waitFor();
    await page.getByRole('list', { name: 'Users of this company' }).getByRole('link', { name: 'console-user' }).waitFor();
  }, 60_000);

  it("lists a meter's billing reports, opens one and explains it down to the events behind it", async () => {
    const hoursAgo = new Date(Date.now() - 3 * 3_600_000);
    const billed = await rt.collect('/v1/events', apiCall({ transaction_id: uuid(91), company_id: 'console-co', user_id: 'console-user' }, hoursAgo));
    expect(billed.status).toBe(201);
    await rt.waitUntilConsumed();
    const channel = await rt.management('POST', '/~/billing/channels', {}, { name: 'console hook', url: 'http://127.0.0.1:9/hook' });
    expect(channel.status).toBe(201);
    const plan = await rt.management('POST', '/~/billing/catalog/plans', {}, { name: 'Console plan' });
    expect(plan.status).toBe(201);
    const meter = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'Console calls',
        slug: 'console-calls',
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: [channel.body._id], custom_plan: { plan_id: plan.body.id } } } },
      },
    );
    if (meter.status !== 201) throw new Error(`meter: ${JSON.stringify(meter.body)}`);
    const summary = await rt.billing.runOnce({ now: new Date() });
    expect(summary.errors).toEqual([]);
    await page.goto(`${consoleUrl}/billing/meters`);
    await page.getByRole('link', { name: 'Reports of Console calls' }).click();
    await page.waitForURL(/\/console\/billing\/reports\?meter=/);
    // The filter names the meter, not its id.
    await page.getByText('Meter Console calls').waitFor();
    const firstReport = page.getByRole('region', { name: 'Billing reports' }).getByRole('link').first();
    await firstReport.click();
    await page.waitForURL(/\/console\/billing\/reports\/[^/?]+$/);
    await page.getByRole('region', { name: 'Provider requests' }).waitFor();
    await page.getByRole('article', { name: 'Billing report' }).getByRole('link', { name: 'Console calls' }).waitFor();
    await page.click('button:has-text("Explain this report")');
    const sample = page.getByRole('link', { name: '00000000-0000-4000-8000-000000000091' });
    await sample.waitFor({ timeout: 30_000 });
    await shot('billing-report');
    await sample.click();
    await page.waitForURL(/\/console\/events\/00000000-0000-4000-8000-000000000091$/);
    await page.getByRole('region', { name: 'Request' }).waitFor();
    // The billing metrics chart of the reports page draws the billed usage.
    await page.goto(`${consoleUrl}/billing/reports`);
    await page
      .getByRole('region', { name: 'Billing metrics' })
      .getByRole('img', { name: /Billed usage and amounts per 1d/ })
      .waitFor({ timeout: 30_000 });
  }, 120_000);

  it('creates and edits a billing meter, showing what the API refuses beside the field it names', async () => {
    await page.goto(`${consoleUrl}/billing/meters/new`);
    const form = page.getByRole('form', { name: 'New meter' });
    await form.locator('input[name="name"]').fill('UI meter');
    await form.locator('input[name="slug"]').fill('Not A Slug');
    await form.locator('textarea[name="es_query"]').fill('{"query": ');
    await form.getByRole('button', { name: 'Create meter' }).click();
    await form.locator('.field.invalid').filter({ hasText: 'not valid JSON' }).waitFor();
    await form.locator('textarea[name="es_query"]').fill('{"query":{"term":{"request.verb.raw":"POST"}}}');
    await form.locator('input[type="checkbox"][name="channel_ids"]').first().check();
    await form.locator('select[name="plan_id"]').selectOption({ label: 'Console plan' });
    await form.getByRole('button', { name: 'Create meter' }).click();
    await form.locator('.field.invalid').filter({ hasText: 'must be lower-case letters' }).waitFor();
    await shot('meter-refused');
    await form.locator('input[name="slug"]').fill('ui-meter');
    await form.getByRole('button', { name: 'Create meter' }).click();
    await page.waitForURL(/\/console\/billing\/meters$/);
    await page.getByRole('link', { name: 'Edit UI meter' }).click();
    const edit = page.getByRole('form', { name: 'Edit meter' });
    await edit.locator('select[name="status"]').selectOption('inactive');
    await edit.getByRole('button', { name: 'Save meter' }).click();
    await page.waitForURL(/\/console\/billing\/meters$/);
    const meters = (await rt.management('GET', '/~/billing/meters')).body as {
      name: string;
      status: string;
      slug: string;
      billing_plan: { params: { webhook_params: { channel_ids: string[] } } };
    }[];
    expect(meters.find((m) => m.name === 'UI meter')).toMatchObject({
      slug: 'ui-meter',
      status: 'inactive',
      billing_plan: {
        provider_slug: 'webhook',
        params: { webhook_params: { channel_ids: [expect.any(String)], custom_plan: { plan_id: expect.any(String) } } },
      },
    });
  }, 60_000);

  it('adds a price with graduated tiers to a catalog plan, showing a refusal beside the tiers first', async () => {
    await page.goto(`${consoleUrl}/billing/catalog`);
    await page.getByRole('button', { name: 'Add a price to Console plan' }).click();
    const form = page.getByRole('form', { name: 'New price' });
    await form.locator('input[name="price_name"]').fill('Tiered calls');
    await form.getByLabel('Tier 2 up to').fill('500');
    await form.getByRole('button', { name: 'Add price' }).click();
    await form.locator('.field-problem').first().waitFor();
    await shot('price-refused');
    await form.getByLabel('Tier 2 up to').fill('inf');
    await form.getByRole('button', { name: 'Add price' }).click();
    await page
      .getByRole('list', { name: 'Prices of Console plan' })
      .getByText('graduated tiers in USD: up to 1000: 0.01/unit; up to inf: 0.005/unit')
      .waitFor();
    const prices = (await rt.management('GET', '/~/billing/catalog/prices')).body as { name: string; tiers?: unknown[] }[];
    expect(prices.find((p) => p.name === 'Tiered calls')).toMatchObject({
      pricing_model: 'graduated',
      currency: 'usd',
      tiers: [
        { up_to: 1000, unit_price_in_decimal: '0.01' },
        { up_to: 'inf', unit_price_in_decimal: '0.005' },
      ],
    });
  }, 60_000);

  it("records a credit on a company's subscription, shows its balances and the subscription's ledger", async () => {
    const subscription = { subscription_id: 'sub-credit', company_id: 'console-co', status: 'active', items: [{ plan_id: 'console-credits' }] };
    expect((await rt.collect('/v1/subscriptions', subscription)).status).toBe(201);
    await rt.waitUntilConsumed();
    await page.goto(`${consoleUrl}/companies/console-co`);
    const credit = page.getByRole('form', { name: 'Record a balance transaction' });
    // The company's subscriptions are offered by id, status and plan.
    await credit.locator('select[name="subscription_id"]').selectOption({ label: 'sub-credit (active, console-credits)' });
    await credit.locator('input[name="amount"]').fill('-5');
    await credit.locator('input[name="description"]').fill('Welcome credit');
    await credit.getByRole('button', { name: 'Record' }).click();
    await credit.locator('.field.invalid').filter({ hasText: 'must be greater than zero' }).waitFor();
    await credit.locator('input[name="amount"]').fill('50.00');
    await credit.getByRole('button', { name: 'Record' }).click();
    await credit.getByRole('status').filter({ hasText: 'credit of 50.00 recorded on sub-credit.' }).waitFor();
    expect(await seriousViolations()).toEqual([]);
    const balances = page.getByRole('table', { name: 'Balances' });
    await balances.getByRole('link', { name: 'sub-credit' }).click();
    await page.waitForURL(/\/console\/billing\/subscriptions\/sub-credit$/);
    const ledger = page.getByRole('table', { name: 'Ledger' });
    await ledger.getByRole('cell', { name: 'Welcome credit' }).waitFor();
    // Every line has its time (the entry's effective_at) and says what it is.
    const row = ledger.getByRole('row').filter({ hasText: 'Welcome credit' }).first();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[0]).toMatch(/\d/);
    expect(cells.slice(1, 4)).toEqual(['credit', '50', '50']);
    await shot('ledger');
  }, 60_000);

  it('shows the collector application id with SDK snippets, and mints and revokes a management token', async () => {
    await page.goto(`${consoleUrl}/apps`);
    await expect(page.getByLabel('Collector application id', { exact: true }).textContent()).resolves.toBe(rt.credentials.collector_application_id);
    // Every SDK the README names; each snippet is run in a real app by sdk-snippets.test.ts.
    for (const sdk of ['moesif-nodejs', 'moesif-browser-js', 'moesifwsgi', 'moesifasgi', 'moesifapi'])
      await expect(page.getByLabel(`${sdk} code`, { exact: true }).textContent()).resolves.toContain(rt.credentials.collector_application_id);
    await expect(page.getByLabel('moesif-nodejs code', { exact: true }).textContent()).resolves.toContain(`baseUri: "${rt.credentials.collector_url}"`);
    await page.getByRole('table', { name: 'Apps' }).getByText('Current app').waitFor();
    await shot('apps');
    await page.click('button:has-text("Mint token")');
    const minted = (await page.getByLabel('Minted token', { exact: true }).textContent())!.trim();
    const count = () =>
      fetch(`${rt.credentials.management_url}/search/~/count/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${minted}`, 'content-type': 'application/json' },
        body: '{}',
      });
    expect((await count()).status).toBe(200);
    const id = (await page.locator('.minted code').textContent())!;
    // The new token is listed with the console's own (which is marked, not revocable here).
    const tokens = page.getByRole('table', { name: 'Your tokens' });
    await tokens.getByRole('row').filter({ hasText: 'this console' }).waitFor();
    await tokens.getByRole('button', { name: `Revoke ${id}` }).click();
    await page.getByText(`Token ${id} revoked.`).waitFor();
    await tokens.getByRole('button', { name: `Revoke ${id}` }).waitFor({ state: 'detached' });
    expect((await count()).status).toBe(401);
    // Any token of the organisation can still be revoked by its id.
    const other = await rt.management('GET', '/~/oauth/access_tokens?target=management&scope=read:events');
    await page.fill('input[name="token_id"]', other.body._id);
    await page.getByRole('form', { name: 'Revoke a token' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText(`Token ${other.body._id} revoked.`).waitFor();
  }, 60_000);

  it('builds a cohort with a live member count, and shows the members a governance rule hits', async () => {
    await page.goto(`${consoleUrl}/cohorts`);
    const editor = page.getByRole('form', { name: 'New cohort' });
    await editor.locator('input[name="cohort_name"]').fill('Pro users');
    await editor.locator('textarea[name="criteria"]').fill('metadata.plan:pro');
    await editor.getByRole('status').filter({ hasText: '1 user profile(s) are members now.' }).waitFor({ timeout: 30_000 });
    await editor.locator('textarea[name="criteria"]').fill('{"term":');
    await editor.getByRole('alert').filter({ hasText: 'not valid JSON' }).waitFor();
    await editor.locator('textarea[name="criteria"]').fill('{"term":{"metadata.plan.raw":"pro"}}');
    await editor.getByRole('status').filter({ hasText: '1 user profile(s) are members now.' }).waitFor({ timeout: 30_000 });
    // Behaviour: pro users who made no POST call in the last 30 days (none: the console user did), then those who did.
    await editor.getByRole('button', { name: 'Add event condition' }).click();
    const condition = editor.getByRole('group', { name: 'Event condition 1' });
    await condition.getByLabel('Events').fill('request.verb:POST');
    await condition.getByLabel('Performed').selectOption('did not');
    await editor.getByRole('status').filter({ hasText: '0 user profile(s) are members now.' }).waitFor({ timeout: 30_000 });
    await condition.getByLabel('Performed').selectOption('did');
    await editor.getByRole('status').filter({ hasText: '1 user profile(s) are members now.' }).waitFor({ timeout: 30_000 });
    await editor.getByRole('button', { name: 'Create cohort' }).click();
    await page.waitForURL(/\/console\/cohorts\/[^/]+$/);
    const cohortId = decodeURIComponent(page.url().split('/').pop()!);
    await page.getByRole('region', { name: 'Members' }).getByRole('link', { name: 'console-user' }).waitFor();
    const stored = await rt.management('GET', `/~/cohorts/${cohortId}`);
    expect(stored.body).toMatchObject({ cohort_name: 'Pro users', cohort_type: 'user' });
    // Stored as JSON text, as the spec has it: the profile query beside the event conditions.
    expect(JSON.parse(stored.body.criteria)).toEqual({
      query: { term: { 'metadata.plan.raw': 'pro' } },
      events: {
        conditions: [
          { query: { query_string: { query: 'request.verb:POST' } }, measure: 'count', operator: 'gte', value: 1, window: { last: 30, unit: 'days' } },
        ],
      },
    });
    await shot('cohort');
    const rule = await rt.management(
      'POST',
      '/~/governance/rules',
      {},
      { name: 'Pro users get a header', type: 'user', state: 1, block: false, cohorts: [{ id: cohortId }] },
    );
    expect(rule.status).toBe(201);
    await page.goto(`${consoleUrl}/governance`);
    const row = page.getByRole('row', { name: /Pro users get a header/ });
    await row.getByRole('link', { name: 'Pro users', exact: true }).waitFor();
    await row.getByText('1 user profile(s) are members now.').waitFor({ timeout: 30_000 });
    // The user's profile names the cohorts it belongs to.
    await page.goto(`${consoleUrl}/users/console-user`);
    await page.getByRole('region', { name: 'Cohorts' }).getByRole('link', { name: 'Pro users' }).waitFor({ timeout: 30_000 });
  }, 60_000);

  it('shows a single number, and lays saved workspaces out on a dashboard', async () => {
    await page.goto(`${consoleUrl}/charts/new?view=metric&metric=count&from=-30d`);
    const number = page.getByRole('figure', { name: 'Event count' });
    await number.waitFor({ timeout: 30_000 });
    expect(Number((await number.locator('output').textContent())!.replace(/[^0-9]/g, ''))).toBeGreaterThanOrEqual(2);
    await page.fill('input[name="workspace_name"]', 'Calls this month');
    await page.click('button:has-text("Save as workspace")');
    await page.waitForURL(/\/console\/workspaces\/[^/]+$/);
    const workspaceUrl = page.url();
    await page.goto(`${consoleUrl}/dashboards`);
    await page.fill('input[name="dashboard_name"]', 'Operations');
    await page.click('button:has-text("Create dashboard")');
    await page.getByRole('link', { name: 'Operations' }).waitFor();
    await page.goto(workspaceUrl);
    await page.selectOption('select[name="dashboard"]', { label: 'Operations' });
    await page.click('button:has-text("Add to dashboard")');
    await page.waitForURL(/\/console\/dashboards\/[^/]+$/);
    await page.getByRole('heading', { name: 'Operations' }).waitFor();
    await page.getByRole('region', { name: 'Calls this month' }).getByRole('figure', { name: 'Event count' }).waitFor({ timeout: 30_000 });
    // A second row: the time series saved earlier, drawn from its own stored query.
    await page.goto(timeSeriesWorkspaceUrl);
    await page.selectOption('select[name="dashboard"]', { label: 'Operations' });
    await page.click('button:has-text("Add to dashboard")');
    await page.waitForURL(/\/console\/dashboards\/[^/]+$/);
    await page
      .getByRole('region', { name: 'Calls per hour' })
      .getByRole('img', { name: /Event count per 1h/ })
      .waitFor({ timeout: 30_000 });
    await expect(page.locator('.grid-tile').count()).resolves.toBe(2);
    await shot('dashboard');
  }, 60_000);

  it('shares the dashboard through a link and an iframe that need no account, and revokes the link', async () => {
    // The owner, on the dashboard the test before laid out.
    await page.getByText('Share publicly or embed').click();
    await page.click('button:has-text("Create link")');
    const made = page.getByRole('status').filter({ hasText: 'shown once' });
    await made.waitFor();
    const link = await made.getByLabel('Link').inputValue();
    const embed = await made.getByLabel('Embed').inputValue();
    expect(link).toMatch(/\/console\/shared\/sv1\./);
    expect(embed).toMatch(/^<iframe src="[^"]*\/console\/embed\/sv1\./);
    await page.getByRole('table', { name: 'Live shared links' }).getByRole('row').nth(1).waitFor();
    await shot('share-links');

    // A viewer without a session: the link draws both charts from their stored queries.
    const viewer = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const outsider = await viewer.newPage();
    outsider.on('pageerror', (error) => pageErrors.push(error.message));
    await outsider.goto(link);
    await outsider.getByRole('heading', { name: 'Operations' }).waitFor();
    await outsider.getByRole('region', { name: 'Calls this month' }).getByRole('figure', { name: 'Event count' }).waitFor({ timeout: 30_000 });
    await outsider
      .getByRole('region', { name: 'Calls per hour' })
      .getByRole('img', { name: /Event count per 1h/ })
      .waitFor({ timeout: 30_000 });
    await outsider.selectOption('select', { label: 'Last 7 days' });
    await outsider.getByRole('region', { name: 'Calls this month' }).getByRole('figure', { name: 'Event count' }).waitFor({ timeout: 30_000 });
    expect(outsider.url()).toBe(link);
    await outsider.screenshot({ path: join(SCREENSHOTS, 'shared-dashboard.png'), fullPage: true });

    // Another site's page with the iframe snippet (about:blank is another origin; the embed page allows any framer).
    await outsider.setContent(`<!doctype html><title>Partner portal</title><h1>Our usage</h1>${embed}`);
    await outsider.frameLocator('iframe').getByRole('figure', { name: 'Event count' }).waitFor({ timeout: 30_000 });
    await outsider.screenshot({ path: join(SCREENSHOTS, 'shared-embed.png'), fullPage: true });

    // Revoked by the owner: the link stops working.
    await page.getByRole('table', { name: 'Live shared links' }).getByRole('button', { name: 'Revoke' }).first().click();
    await page.getByText('None: this dashboard is not shared.').waitFor();
    await outsider.goto(link);
    await expect(outsider.getByRole('alert').textContent()).resolves.toMatch(/no longer works/);
    await viewer.close();
  }, 90_000);

  it("opens an email's unsubscribe link without an account and unsubscribes from that email", async () => {
    const cohort = await rt.management(
      'POST',
      '/~/cohorts',
      {},
      { cohort_name: 'Ada', cohort_type: 'user', criteria: { term: { 'user_id.raw': 'console-user' } } },
    );
    const template = await rt.management(
      'POST',
      '/~/emails/templates',
      {},
      {
        name: 'Welcome aboard',
        state: 1,
        addresses: { from: 'hello@service.test', cc: [], bcc: [] },
        cohorts: [{ id: cohort.body._id, type: 'user' }],
        template: { subject: 'Welcome, {{user.metadata.name}}', editor: 'html', design: {} },
        content: { html: '<p>Glad you are here.</p>', chunks: {} },
      },
    );
    expect(template.status).toBe(201);
    // The local runtime's default transport: .eml files in DATA_DIR/outbox.
    const run = await rt.emails.runOnce();
    expect(run.sent).toBe(1);
    const outbox = join(rt.dataDir, 'outbox');
    const [file] = (await readdir(outbox)).filter((name) => name.endsWith('.eml'));
    const message = await readFile(join(outbox, file!), 'utf8');
    expect(message).toMatch(/^To: ada@example\.com$/m);
    const link = /href="([^"]+\/console\/unsubscribe\/[^"]+)"/.exec(message.replace(/=\r?\n/g, '').replace(/=3D/g, '='))![1]!;
    const viewer = await browser.newContext();
    const outsider = await viewer.newPage();
    await outsider.goto(link);
    await outsider.getByText('Stop sending “Welcome aboard” to ada@example.com?').waitFor();
    await outsider.screenshot({ path: join(SCREENSHOTS, 'unsubscribe.png'), fullPage: true });
    await outsider.click('button:has-text("Unsubscribe from this email")');
    await outsider.getByRole('status').getByText('ada@example.com will no longer receive “Welcome aboard”.').waitFor();
    await viewer.close();
    expect(await rt.stores.emailSends.isSuppressed({ orgId: rt.credentials.org_id, appId: rt.credentials.app_id }, template.body._id, 'ada@example.com')).toBe(
      true,
    );
  }, 60_000);

  it('lists email templates and opens one with its body, sends log and a test send, then pauses it', async () => {
    // The template the unsubscribe test created and sent once.
    await page.goto(`${consoleUrl}/emails`);
    const list = page.getByRole('table', { name: 'Email templates' });
    const row = list.getByRole('row').filter({ hasText: 'Welcome aboard' });
    await row.getByText('Active').waitFor();
    await row.getByText('once per recipient').waitFor();
    await row.getByRole('link', { name: 'Welcome aboard' }).click();
    await page.waitForURL(/\/console\/emails\/[^/]+$/);
    const templateId = decodeURIComponent(page.url().split('/').pop()!);
    // The body in a sandboxed frame, as written.
    const body = page.frameLocator('iframe[title="Email body"]');
    await body.getByText('Glad you are here.').waitFor();
    expect(await page.locator('iframe[title="Email body"]').getAttribute('sandbox')).toBe('');
    // Its audience by cohort name, not id.
    await page.locator('dl.facts dd').filter({ hasText: /^Ada$/ }).waitFor();
    const sends = page.getByRole('table', { name: 'Sends log' });
    await sends.getByRole('row').filter({ hasText: 'ada@example.com' }).getByText('sent').waitFor();
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('Nothing sent yet').waitFor();
    await page.getByLabel('Status').selectOption('');
    // A test send, rendered for the user, through the local outbox.
    const form = page.getByRole('form', { name: 'Send a test' });
    await form.getByLabel('To').fill('qa@example.com');
    await form.getByLabel(/As user/).fill('console-user');
    await form.getByRole('button', { name: 'Send test' }).click();
    await form
      .getByRole('status')
      .getByText(/^Sent “\[Test\] Welcome, .*” to qa@example\.com \(outbox\)\.$/)
      .waitFor();
    await shot('emails');
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Activate' }).or(page.getByRole('alert')).first().waitFor();
    expect(await page.getByRole('alert').allTextContents()).toEqual([]);
    await page.getByRole('button', { name: 'Activate' }).waitFor();
    expect((await rt.management('GET', `/~/emails/templates/${templateId}`)).body).toMatchObject({ state: 2 });
    // A test is not a send: the log still holds the one real send.
    expect((await rt.management('GET', `/~/emails/templates/${templateId}/sends`)).body).toHaveLength(1);
  }, 60_000);

  it('stores a contract ABI, showing what the API refuses beside the field it names, and deletes it', async () => {
    await page.goto(`${consoleUrl}/contracts`);
    await page.getByText('No contract ABIs yet').waitFor();
    const form = page.getByRole('form', { name: 'Add an ABI' });
    const transfer = [
      {
        type: 'function',
        name: 'transfer',
        inputs: [
          { name: 'to', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
        outputs: [{ type: 'bool' }],
        stateMutability: 'nonpayable',
      },
    ];
    // Not JSON: named before anything is sent.
    await form.getByLabel('ABI (JSON)').fill('[{"type": "function",');
    await form.getByRole('button', { name: 'Store ABI' }).click();
    await form.getByText(/^is not JSON/).waitFor();
    // An address the API refuses, then an ABI item it refuses: each beside its field.
    await form.getByLabel(/Contract address/).fill('0x1234');
    await form.getByLabel('ABI (JSON)').fill(JSON.stringify(transfer));
    await form.getByRole('button', { name: 'Store ABI' }).click();
    await form.getByText('is not a 0x address of 40 hex digits').waitFor();
    const address = '0x00000000000000000000000000000000000000aa';
    await form.getByLabel(/Contract address/).fill(address);
    await form.getByLabel('ABI (JSON)').fill(JSON.stringify([{ ...transfer[0], inputs: [{ name: 'to', type: 'uint999' }] }]));
    await form.getByRole('button', { name: 'Store ABI' }).click();
    await form.getByText(/^\[0\]\.inputs: is not a valid ABI parameter list/).waitFor();
    // The compiler's output file (the ABI under "abi") is taken as it is.
    await form.getByLabel('Name (optional)').fill('Token');
    await form.getByLabel('ABI (JSON)').fill(JSON.stringify({ contractName: 'Token', abi: transfer }));
    await form.getByRole('button', { name: 'Store ABI' }).click();
    const row = page.getByRole('table', { name: 'Contract ABIs' }).getByRole('row').filter({ hasText: address });
    await row.getByText('Token').waitFor();
    await row.getByRole('cell', { name: '1', exact: true }).waitFor();
    expect((await rt.management('GET', '/~/eth_abi')).body).toMatchObject([{ _id: address, name: 'Token', functions: 1 }]);
    await shot('contracts');
    await row.getByRole('button', { name: `Delete the ABI of ${address}` }).click();
    await page.getByText('No contract ABIs yet').waitFor();
    expect((await rt.management('GET', '/~/eth_abi')).body).toEqual([]);
  }, 60_000);

  it('warns on the meter page, before it is saved and after a run, when no subscription carries its plan', async () => {
    await page.goto(`${consoleUrl}/billing/meters/new`);
    const form = page.getByRole('form', { name: 'New meter' });
    await form.locator('input[name="name"]').fill('Warned meter');
    await form.locator('input[name="slug"]').fill('warned-meter');
    await form.locator('input[type="checkbox"][name="channel_ids"]').first().check();
    await form.locator('select[name="plan_id"]').selectOption({ label: 'Console plan' });
    await form.getByRole('button', { name: 'Preview what it bills' }).click();
    const preview = page.getByRole('region', { name: 'Meter preview' });
    const planId = await form.locator('select[name="plan_id"]').inputValue();
    await preview
      .getByRole('status')
      .filter({ hasText: `"${planId}"` })
      .waitFor();
    await expect(preview.textContent()).resolves.toContain(`Subscriptions must carry ${planId}`);
    await shot('meter-preview');
    expect(await seriousViolations()).toEqual([]);
    await form.getByRole('button', { name: 'Create meter' }).click();
    await page.waitForURL(/\/console\/billing\/meters$/);

    const summary = await rt.billing.runOnce({ now: new Date() });
    expect(summary.warnings.map((w) => w.meterName)).toContain('Warned meter');
    await page.getByRole('link', { name: 'Edit Warned meter' }).click();
    await page.getByRole('region', { name: 'Meter preview' }).getByRole('status').filter({ hasText: 'Bills nothing as set up' }).waitFor();
  }, 60_000);

  it('creates, edits and deletes webhook channels, shows a secret once, and test-delivers from a meter', async () => {
    const received: Record<string, string | string[] | undefined>[] = [];
    const receiver = createServer((request, response) => {
      received.push(request.headers);
      request.resume();
      response.writeHead(204).end();
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    try {
      await page.goto(`${consoleUrl}/billing/meters`);
      await page.getByRole('link', { name: 'Webhook channels' }).click();
      const create = page.getByRole('form', { name: 'New webhook channel' });
      await create.locator('input[name="channel_name"]').fill('Finance hook');
      await create.locator('input[name="channel_url"]').fill('ftp://nowhere');
      await create.getByRole('button', { name: 'Create channel' }).click();
      await create.locator('.field.invalid').filter({ hasText: 'URL' }).waitFor();
      await create.locator('input[name="channel_url"]').fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/usage`);
      await create.getByRole('button', { name: 'Create channel' }).click();
      await page.getByRole('status').filter({ hasText: 'Signing secret of Finance hook' }).waitFor();
      const first = await page.locator('.secret-once code').textContent();
      await page.getByRole('button', { name: 'Edit Finance hook' }).click();
      const edit = page.getByRole('form', { name: 'Edit channel Finance hook' });
      await edit.locator('input[name="channel_name"]').fill('Finance');
      await edit.locator('input[name="rotate_secret"]').check();
      await edit.getByRole('button', { name: 'Save channel' }).click();
      await page.getByRole('status').filter({ hasText: 'Signing secret of Finance:' }).waitFor();
      expect(await page.locator('.secret-once code').textContent()).not.toBe(first);
      await shot('webhook-channels');
      expect(await seriousViolations()).toEqual([]);

      await create.locator('input[name="channel_name"]').fill('Spare');
      await create.locator('input[name="channel_url"]').fill('https://spare.example.com/usage');
      await create.getByRole('button', { name: 'Create channel' }).click();
      await page.getByRole('button', { name: 'Delete Spare' }).waitFor();
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Delete Spare' }).click();
      await page.getByRole('button', { name: 'Delete Spare' }).waitFor({ state: 'detached' });
      const channels = (await rt.management('GET', '/~/billing/channels')).body as { _id: string; name: string }[];
      expect(channels.map((c) => c.name)).toContain('Finance');
      expect(channels.map((c) => c.name)).not.toContain('Spare');

      const finance = channels.find((c) => c.name === 'Finance')!;
      const plan = await rt.management('POST', '/~/billing/catalog/plans', {}, { name: 'Hooked plan' });
      const meter = await rt.management(
        'POST',
        '/~/billing/meters',
        {},
        {
          name: 'Hooked meter',
          slug: 'hooked-meter',
          es_query: { query: { match_all: {} } },
          billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: [finance._id], custom_plan: { plan_id: plan.body.id } } } },
        },
      );
      expect(meter.status).toBe(201);
      await page.goto(`${consoleUrl}/billing/meters/${meter.body._id}`);
      await page.getByRole('button', { name: 'Send a test event to its channels' }).click();
      await page.getByRole('list', { name: 'Test deliveries' }).filter({ hasText: 'Finance: delivered (HTTP 204)' }).waitFor();
      expect(received.map((headers) => typeof headers['x-usage-signature'])).toEqual(['string']);
    } finally {
      await new Promise((done) => receiver.close(done));
    }
  }, 60_000);

  it("creates, edits and deletes a governance rule, with the members its cohort hits and the API's refusals beside the fields", async () => {
    const cohort = await rt.management(
      'POST',
      '/~/cohorts',
      {},
      { cohort_name: 'Rule targets', cohort_type: 'user', criteria: { term: { user_id: 'console-user' } } },
    );
    expect(cohort.status).toBe(201);
    await page.goto(`${consoleUrl}/governance`);
    await page.getByRole('link', { name: 'New rule' }).click();
    const form = page.getByRole('form', { name: 'New governance rule' });
    await form.locator('input[name="rule_name"]').fill('Block rule targets');
    await form.locator(`input[name="cohort_ids"][value="${cohort.body._id}"]`).check();
    await form.getByRole('status').filter({ hasText: '1 user profile(s) are members now.' }).waitFor({ timeout: 30_000 });
    await form.locator('input[name="response_status"]').fill('402');
    await form.locator('textarea[name="response_body"]').fill('{"error": "Upgrade, {{name}}"}');
    await form.getByRole('button', { name: 'Add to variables' }).click();
    await form.getByLabel('Name 1').fill('name');
    await form.getByLabel('Profile field 1').fill('metadata.name');
    await shot('governance-rule');
    expect(await seriousViolations()).toEqual([]);
    await form.getByRole('button', { name: 'Create rule' }).click();
    await page.waitForURL(/\/console\/governance$/);
    const created = ((await rt.management('GET', '/~/governance/rules')).body as { _id: string; name: string }[]).find((r) => r.name === 'Block rule targets')!;
    expect((await rt.management('GET', `/~/governance/rules/${created._id}`)).body).toMatchObject({
      type: 'user',
      state: 1,
      block: true,
      cohorts: [{ id: cohort.body._id }],
      variables: [{ name: 'name', path: 'metadata.name' }],
      response: { status: 402, body: { error: 'Upgrade, {{name}}' } },
    });

    await page.getByRole('link', { name: 'Edit Block rule targets' }).click();
    const edit = page.getByRole('form', { name: 'Edit governance rule' });
    await edit.locator('select[name="rule_type"]').selectOption('regex');
    await edit.getByLabel('Pattern 1').fill('(');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await edit.locator('.field.invalid').filter({ hasText: 'is not a valid regular expression' }).waitFor();
    await edit.getByLabel('Pattern 1').fill('^/admin');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await page.waitForURL(/\/console\/governance$/);
    expect((await rt.management('GET', `/~/governance/rules/${created._id}`)).body).toMatchObject({
      type: 'regex',
      regex_config: [{ conditions: [{ path: 'request.route', value: '^/admin' }] }],
    });

    await page.getByRole('link', { name: 'Edit Block rule targets' }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete rule' }).click();
    await page.waitForURL(/\/console\/governance$/);
    expect((await rt.management('GET', `/~/governance/rules/${created._id}`)).status).toBe(410);
  }, 60_000);

  it('creates a quota rule on a plan, with the refusal beside the quota field, and shows who it blocks now with their usage', async () => {
    const now = Date.now();
    const plans = (await rt.management('GET', '/~/billing/catalog/plans')).body as { id: string; name: string }[];
    const planId = plans.find((plan) => plan.name === 'Console plan')!.id;
    expect(
      (
        await rt.collect('/v1/subscriptions', {
          subscription_id: 'sub-console',
          company_id: 'quota-co',
          status: 'active',
          current_period_start: new Date(now - 86_400_000).toISOString(),
          current_period_end: new Date(now + 29 * 86_400_000).toISOString(),
          items: [{ plan_id: planId }],
        })
      ).status,
    ).toBe(201);
    const calls = [0, 1, 2].map((i) =>
      apiCall(
        {
          transaction_id: uuid(9400 + i),
          company_id: 'quota-co',
          request: { time: new Date(now - 60_000 * (i + 1)).toISOString(), uri: 'https://api.example.com/widgets', verb: 'GET', headers: {} },
        },
        new Date(now - 60_000 * (i + 1)),
      ),
    );
    expect((await rt.collect('/v1/events/batch', calls)).status).toBe(201);
    await rt.waitUntilConsumed();

    await page.goto(`${consoleUrl}/governance/new`);
    const form = page.getByRole('form', { name: 'New governance rule' });
    await form.locator('input[name="rule_name"]').fill('Console plan quota');
    await form.locator('select[name="rule_type"]').selectOption('company');
    await form.locator('select[name="rule_model"]').selectOption('quota');
    await form.getByRole('button', { name: 'Add a plan' }).click();
    await form.locator('select[name="rule_plan_0"]').selectOption({ label: `Console plan (${planId})` });
    // A new rule answers with the model's default (429 with X-RateLimit-* and Retry-After) unless told otherwise.
    expect(await form.locator('input[name="default_response"]').isChecked()).toBe(true);
    // No limit, and the catalog has no such plan: refused, beside the quota field.
    await form.getByRole('button', { name: 'Create rule' }).click();
    await form
      .locator('.field.invalid')
      .filter({ hasText: `the catalog has no plan ${planId} of its provider with a quota` })
      .waitFor();
    await form.locator('input[name="quota_limit"]').fill('2');
    expect(await seriousViolations()).toEqual([]);
    await shot('governance-quota-rule');
    await form.getByRole('button', { name: 'Create rule' }).click();
    await page.waitForURL(/\/console\/governance$/);
    // Lists name plans by their names.
    await page.getByText('subscribers over quota on Console plan').waitFor();

    await page.getByRole('link', { name: 'Edit Console plan quota' }).click();
    const blocked = page.getByRole('table', { name: 'Blocked now, by id' });
    await blocked.waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { name: 'Blocked now: 1' }).waitFor();
    const row = blocked.getByRole('row', { name: /quota-co/ });
    expect(await row.getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(['quota-co', '3', '2', 'sub-console', 'Console plan']));
    expect(await page.getByRole('form', { name: 'Edit governance rule' }).locator('input[name="quota_limit"]').inputValue()).toBe('2');
    expect(await seriousViolations()).toEqual([]);
    await shot('governance-quota-members');
  }, 60_000);

  it('creates an alert with its metric charted against the threshold, runs it now, and shows its history', async () => {
    const at = Date.now();
    const calls = [0, 1, 2].map((i) => apiCall({ transaction_id: uuid(9500 + i) }, new Date(at - (i + 1) * 60_000)));
    expect((await rt.collect('/v1/events/batch', calls)).status).toBe(201);
    await rt.waitUntilConsumed();
    await page.goto(`${consoleUrl}/alerts`);
    await page.getByRole('link', { name: 'create one' }).click();
    const form = page.getByRole('form', { name: 'New alert' });
    await form.locator('input[name="alert_name"]').fill('Busy API');
    await form.locator('input[name="alert_window"]').fill('60');
    await form.locator('input[name="alert_threshold"]').fill('2');
    // The events it counts, built from the data as a chart's filters are (the JSON stays the advanced form).
    const picker = form.getByRole('group', { name: 'Build a condition from the data' });
    await picker.locator('input[name="pick_field"]').fill('request.verb');
    await picker.locator('input[name="pick_value"]').fill('GET');
    await picker.getByRole('button', { name: 'Add filter' }).click();
    await expect(form.locator('textarea[name="alert_query"]').inputValue()).resolves.toMatch(/^request\.verb.*GET/);
    // The preview: the metric per window, with the threshold drawn.
    await form.getByRole('img', { name: 'count per 60-minute window, with the threshold' }).waitFor({ timeout: 30_000 });
    await form.getByRole('button', { name: 'Create alert' }).click();
    // No channel yet: refused, and said so.
    await form.getByRole('alert').filter({ hasText: 'at least one' }).first().waitFor();
    await form.locator('input[name="alert_emails"]').fill('oncall@example.com');
    expect(await seriousViolations()).toEqual([]);
    await shot('alert-editor');
    await form.getByRole('button', { name: 'Create alert' }).click();
    await page.waitForURL(/\/console\/alerts$/);
    await page.getByRole('table', { name: 'Alerts' }).getByText('above 2').waitFor();

    await page.getByRole('link', { name: 'Busy API' }).click();
    await page.getByRole('heading', { name: 'Never fired' }).waitFor();
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.getByRole('status').filter({ hasText: 'Evaluated now: 1 fired' }).waitFor();
    const history = page.getByRole('table', { name: 'Alert history' });
    await history.getByText('Email oncall@example.com: sent').waitFor({ timeout: 30_000 });
    const stored = (await rt.management('GET', '/~/alerts')).body as { name: string; query?: unknown }[];
    expect(stored.find((alert) => alert.name === 'Busy API')?.query).toEqual({ query_string: { query: expect.stringMatching(/^request\.verb.*GET/) } });
    expect(await history.getByRole('row').count()).toBe(2);
    expect(await seriousViolations()).toEqual([]);
    await shot('alert-history');
  }, 60_000);

  it('rearranges, renames and deletes a dashboard, with one time range for all tiles, and renames and deletes workspaces', async () => {
    await page.goto(`${consoleUrl}/dashboards`);
    await page.getByRole('link', { name: 'Operations' }).click();
    await page.waitForURL(/\/console\/dashboards\/[^/]+$/);
    const dashboardId = decodeURIComponent(page.url().split('/').pop()!);
    const rows = async () => ((await rt.management('GET', `/~/dashboards/${dashboardId}`)).body as { workspace_ids: string[][] }).workspace_ids;
    const [[monthly], [hourly]] = (await rows()) as [[string], [string]];
    await page
      .getByRole('region', { name: 'Calls per hour' })
      .getByRole('img', { name: /Event count per 1h/ })
      .waitFor({ timeout: 30_000 });
    await page.selectOption('select[name="from"]', '-24h');
    await page
      .getByRole('region', { name: 'Calls per hour' })
      .getByRole('img', { name: /Event count per 1h/ })
      .waitFor({ timeout: 30_000 });
    // Dragged by its handle above the other tile: the grid saves the layout, and the rows follow it.
    const handle = page.getByRole('region', { name: 'Calls per hour' }).locator('.tile-handle');
    const target = (await page.getByRole('region', { name: 'Calls this month' }).boundingBox())!;
    const start = (await handle.boundingBox())!;
    await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
    await page.mouse.down();
    await page.mouse.move(target.x + 40, target.y + 5, { steps: 12 });
    await page.mouse.up();
    await eventually(rows, (now) => JSON.stringify(now) === JSON.stringify([[hourly], [monthly]]));
    // Resized by its corner, and its width set from the keyboard.
    const layoutOf = async () =>
      ((await rt.management('GET', `/~/dashboards/${dashboardId}`)).body as { layout?: { workspace_id: string; w: number; h: number }[] }).layout ?? [];
    const tileOf = async (id: string) => (await layoutOf()).find((tile) => tile.workspace_id === id);
    const before = (await tileOf(hourly))!;
    const corner = (await page.locator(`.grid-tile[data-workspace-id="${hourly}"] .react-resizable-handle`).boundingBox())!;
    await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
    await page.mouse.down();
    await page.mouse.move(corner.x, corner.y + 130, { steps: 10 });
    await page.mouse.up();
    await eventually(
      () => tileOf(hourly),
      (tile) => tile !== undefined && tile.h > before.h,
    );
    await page.getByRole('region', { name: 'Calls per hour' }).locator('select[name="tile_width"]').selectOption({ label: 'Half' });
    await eventually(
      () => tileOf(hourly),
      (tile) => tile?.w === 6,
    );
    // Compared with the previous period: a dashed line beside the chart's own, and the number's previous value.
    await page.getByLabel('Compare with the previous period').check();
    await page.getByRole('region', { name: 'Calls per hour' }).locator('.chart[data-series="2"]').waitFor({ timeout: 30_000 });
    await page
      .getByRole('region', { name: 'Calls this month' })
      .getByText(/^Previous period: /)
      .waitFor({ timeout: 30_000 });
    expect(await seriousViolations()).toEqual([]);
    await page.evaluate('window.getSelection().removeAllRanges()');
    await shot('dashboard-grid');
    await page.getByRole('region', { name: 'Calls this month' }).getByRole('button', { name: 'Remove from dashboard' }).click();
    await eventually(rows, (now) => JSON.stringify(now) === JSON.stringify([[hourly]]));
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('form', { name: 'Rename dashboard' }).locator('input[name="dashboard_name"]').fill('Ops');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('heading', { name: 'Ops', exact: true }).waitFor();
    await shot('dashboard-edit');
    expect(await seriousViolations()).toEqual([]);

    await page.goto(`${consoleUrl}/workspaces`);
    await page.getByRole('button', { name: 'Rename Calls this month' }).click();
    await page.getByRole('form', { name: 'Rename Calls this month' }).locator('input[name="workspace_name"]').fill('Monthly calls');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('link', { name: 'Monthly calls' }).waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete Monthly calls' }).click();
    await page.getByRole('link', { name: 'Monthly calls' }).waitFor({ state: 'detached' });
    expect((await rt.management('GET', `/~/workspaces/${monthly}`)).status).toBe(410);

    await page.goto(`${consoleUrl}/dashboards/${dashboardId}`);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete dashboard' }).click();
    await page.waitForURL(/\/console\/dashboards$/);
    expect((await rt.management('GET', `/~/dashboards/${dashboardId}`)).status).toBe(410);
    expect((await rt.management('GET', `/~/workspaces/${hourly}`)).status).toBe(200);
  }, 90_000);

  it('starts an export, follows it to completion and downloads its part', async () => {
    await page.goto(`${consoleUrl}/events`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Exports' }).click();
    const form = page.getByRole('form', { name: 'New export' });
    await form.locator('input[name="export_query"]').fill('{"term":');
    await form.getByRole('button', { name: 'Start export' }).click();
    await form.locator('.field.invalid').filter({ hasText: 'not valid JSON' }).waitFor();
    await form.locator('input[name="export_query"]').fill('request.verb:POST');
    await form.getByRole('button', { name: 'Start export' }).click();
    const part = page.getByRole('table', { name: 'Export jobs' }).getByRole('link', { name: /^Part 1 \(\d+ rows\)$/ });
    await part.waitFor({ timeout: 30_000 });
    await shot('exports');
    expect(await seriousViolations()).toEqual([]);
    const [job] = (await rt.management('GET', '/~/exports')).body as { status: string; query: unknown; exported: number }[];
    expect(job).toMatchObject({ status: 'completed', query: { query_string: { query: 'request.verb:POST' } } });
    const downloaded = await fetch((await part.getAttribute('href'))!);
    const csv = gunzipSync(Buffer.from(await downloaded.arrayBuffer()))
      .toString('utf8')
      .trim()
      .split('\n');
    expect(csv.length).toBe(job!.exported + 1);
  }, 60_000);

  it('creates an email template with a live preview, cohorts and a dynamic field, and edits it', async () => {
    const cohort = await rt.management(
      'POST',
      '/~/cohorts',
      {},
      { cohort_name: 'Weekly readers', cohort_type: 'user', criteria: { term: { user_id: 'console-user' } } },
    );
    expect(cohort.status).toBe(201);
    await page.goto(`${consoleUrl}/emails`);
    await page.getByRole('link', { name: 'New template' }).click();
    const form = page.getByRole('form', { name: 'New email template' });
    await form.locator('input[name="template_name"]').fill('Weekly usage');
    await form.locator('input[name="subject"]').fill('Your week, {{name}}');
    await form.locator('input[name="from"]').fill('not an address');
    await form.locator(`input[name="cohort_ids"][value="${cohort.body._id}"]`).check();
    await form.getByRole('button', { name: 'Add a dynamic field' }).click();
    await form.getByLabel('Token 1').fill('calls');
    await form.locator('textarea[name="html"]').fill('<p>Hello {{name}}, you made {{calls}} calls.</p>');
    await page.frameLocator('iframe[title="Live preview"]').getByText('you made {{calls}} calls.').waitFor();
    await form.getByRole('button', { name: 'Create template' }).click();
    await form.locator('.field.invalid').filter({ hasText: 'From' }).waitFor();
    await form.locator('input[name="from"]').fill('usage@example.com');
    await shot('email-template-editor');
    expect(await seriousViolations()).toEqual([]);
    await form.getByRole('button', { name: 'Create template' }).click();
    await page.waitForURL(/\/console\/emails\/(?!new$)[^/]+$/);
    const templateId = decodeURIComponent(page.url().split('/').pop()!);
    expect((await rt.management('GET', `/~/emails/templates/${templateId}`)).body).toMatchObject({
      name: 'Weekly usage',
      state: 0,
      period: '1w',
      addresses: { from: 'usage@example.com' },
      cohorts: [{ id: cohort.body._id, type: 'user' }],
      template: { subject: 'Your week, {{name}}' },
      dynamic_fields: [{ token: 'calls', field: 'weight', aggregator: 'sum' }],
    });
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit email template' });
    await edit.locator('select[name="period"]').selectOption('1M');
    await edit.getByRole('button', { name: 'Save template' }).click();
    await page.frameLocator('iframe[title="Email body"]').getByText('you made {{calls}} calls.').waitFor();
    expect((await rt.management('GET', `/~/emails/templates/${templateId}`)).body).toMatchObject({ period: '1M', state: 0 });
  }, 60_000);

  it("renders each API's OpenAPI document as a browsable reference, at the management API's /docs", async () => {
    await page.goto(`${rt.credentials.management_url}/docs`);
    await page.waitForURL(`${consoleUrl}/api-reference`);
    await page.getByRole('heading', { name: 'API reference' }).waitFor();
    await page.getByRole('searchbox', { name: 'Find' }).fill('post cohorts');
    const create = page.locator('details.operation').filter({ hasText: 'POST /~/cohorts Create a cohort' });
    await create.locator('summary').first().click();
    const body = create.getByRole('region', { name: 'Body of POST /~/cohorts' });
    await body.getByText('CohortCreate (object)').waitFor();
    expect(
      await body
        .locator('li')
        .filter({ hasText: /^cohort_name required/ })
        .count(),
    ).toBe(1);
    await create.getByRole('region', { name: 'Answers of POST /~/cohorts' }).getByText('201').waitFor();
    await shot('api-reference');
    await page.getByRole('searchbox', { name: 'Find' }).fill('no-such-endpoint');
    await page.getByText('No endpoint matches').waitFor();
    // The collector's document, fetched from the collector itself.
    await page.getByRole('combobox', { name: 'API' }).selectOption('collector');
    await page.getByRole('searchbox', { name: 'Find' }).fill('post /v1/events');
    await page.locator('details.operation summary').filter({ hasText: 'POST /v1/events' }).first().waitFor();
    expect(await seriousViolations()).toEqual([]);
  });

  it('has no serious accessibility violations on its main pages (axe-core)', async () => {
    const pages = [
      '/events',
      '/event-types',
      '/workspaces',
      '/exports',
      '/customers',
      '/billing/reports',
      '/billing/meters/new',
      '/billing/catalog',
      '/billing/channels',
      '/dashboards',
      '/apps',
      '/cohorts',
      '/emails',
      '/contracts',
      '/emails/new',
      '/governance',
      '/governance/new',
      '/alerts',
      '/alerts/new',
      '/companies/console-co',
      '/charts/new?metric=count&interval=1h&from=-24h',
    ];
    for (const path of pages) {
      await page.goto(`${consoleUrl}${path}`);
      await page.getByRole('main').waitFor();
      await page.waitForLoadState('networkidle');
      expect({ path, serious: await seriousViolations() }).toEqual({ path, serious: [] });
      // Ids are picked (a select, checkboxes, or suggestions as you type), except an id one chooses oneself.
      const typedIds = await page.$$eval('input', (inputs) =>
        inputs
          .filter(
            (input) =>
              /(^|_)ids?$/.test(input.name) && ['text', ''].includes(input.getAttribute('type') ?? '') && !input.list && !input.hasAttribute('data-chosen-id'),
          )
          .map((input) => input.name),
      );
      expect({ path, typedIds }).toEqual({ path, typedIds: [] });
    }
  }, 120_000);

  it('answers an unknown console path with its own not-found page, and fits a phone screen', async () => {
    await page.goto(`${consoleUrl}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${consoleUrl}/events`);
    await page.getByRole('table').waitFor();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    // The sections fold behind Menu: the page's own content starts on the first screen.
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.isVisible()).toBe(false);
    expect((await page.locator('main').boundingBox())!.y).toBeLessThan(150);
    await shot('event-stream-phone');
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await nav.getByRole('link', { name: 'Customers' }).click();
    await page.waitForURL(/\/console\/customers$/);
    // Choosing a section folds the menu again (once the new page has rendered).
    await nav.waitFor({ state: 'hidden', timeout: 10_000 });
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    expect(await nav.isVisible()).toBe(true);
  }, 60_000);

  it('signs out by revoking the token and ending the session: the API refuses both, in every tab', async () => {
    const bearer = new Promise<string>((found) =>
      page.on('request', (request) => {
        const authorization = request.headers()['authorization'];
        if (authorization?.startsWith('Bearer ')) found(authorization.slice(7));
      }),
    );
    await page.goto(`${consoleUrl}/events`);
    const token = await bearer;
    const session = (await page.context().cookies())[0]!.value;
    await page.click('button:has-text("Sign out")');
    await page.waitForURL(/\/console\/sign-in$/);
    const answer = await fetch(`${rt.credentials.management_url}/~/workspaces`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(401);
    const refresh = await fetch(`${rt.credentials.management_url}/oauth/console_session/refresh`, {
      method: 'POST',
      headers: { cookie: `console_session=${session}` },
    });
    expect(refresh.status).toBe(401);
    const tab = await page.context().newPage();
    await tab.goto(`${consoleUrl}/events`);
    await tab.waitForURL(/\/console\/sign-in$/);
    await tab.close();
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
