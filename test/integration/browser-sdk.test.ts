import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { eventually, startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * The real moesif-browser-js (npm, unmodified) in Chromium, on a web page of another origin, sending
 * to the local collector: an anonymous visit from a campaign link, an action and captured fetch and
 * XHR calls while anonymous, then identifyUser and identifyCompany, and an action as the user.
 * Every answer the SDK gets is 2xx, and everything it sent is found through search, the visit's
 * anonymous activity attributed to the user it was identified as.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SDK_FILE = require.resolve('moesif-browser-js/moesif.min.js');

describe('moesif-browser-js in Chromium', () => {
  let rt: TestRuntime;
  let site: Server;
  let siteUrl: string;
  let browser: Browser;
  let page: Page;
  const collectorAnswers: { url: string; status: number }[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    rt = await startTestRuntime('browser-sdk');
    const sdk = await readFile(SDK_FILE);
    const collector = new URL(rt.credentials.collector_url);
    // The SDK takes a host (and path), and picks http: because the page is served over http:.
    const sdkHost = `${collector.host}${collector.pathname.replace(/\/$/, '')}`;
    site = createServer((request, response) => {
      if (request.url === '/moesif.min.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk);
      if (request.url?.startsWith('/api/')) return response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: request.url }));
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html lang="en"><head><title>Shop</title>
<script src="/moesif.min.js"></script>
<script>moesif.init({ applicationId: ${JSON.stringify(rt.credentials.collector_application_id)}, host: ${JSON.stringify(sdkHost)} }); moesif.start();</script>
</head><body><h1>Shop</h1></body></html>`);
    });
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    siteUrl = `http://localhost:${(site.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    page.on('response', (answer) => {
      if (answer.url().startsWith(rt.credentials.collector_url)) collectorAnswers.push({ url: answer.url(), status: answer.status() });
    });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => site?.close(done));
    await rt?.dispose();
  });

  const sent = (path: string) => collectorAnswers.filter((answer) => new URL(answer.url).pathname.endsWith(path));
  const count = async (query: unknown) => (await rt.management('POST', '/search/~/count/events?from=-1h&to=now', {}, { query })).body.count as number;

  it('answers every request of an anonymous visit, identification and tracking with 2xx', async () => {
    await page.goto(`${siteUrl}/pricing?utm_source=newsletter&utm_campaign=launch`);
    const anonymousId = await page.evaluate<string>('moesif._anonymousId');
    expect(anonymousId).toMatch(/.+/);
    await eventually(
      async () => sent('/v1/users').length,
      (n) => n >= 1,
    );

    // Page code as text: this project compiles without the DOM's types.
    await page.evaluate(`(async () => {
      moesif.track('Viewed Pricing', { plan: 'pro' });
      await fetch('/api/items/17', { headers: { accept: 'application/json' } });
      await new Promise((done) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', '/api/orders');
        xhr.setRequestHeader('content-type', 'application/json');
        xhr.onloadend = () => done();
        xhr.send(JSON.stringify({ item: 17 }));
      });
    })()`);
    await eventually(
      async () => sent('/v1/events').length,
      (n) => n >= 2,
    );
    await eventually(
      async () => sent('/v1/actions').length,
      (n) => n >= 1,
    );

    await page.evaluate(`
      moesif.identifyCompany('acme-browser', { plan: 'growth' }, 'acme.example');
      moesif.identifyUser('ada-browser', { email: 'ada@acme.example' });
      moesif.track('Started Checkout');
    `);
    await eventually(
      async () => sent('/v1/users').length,
      (n) => n >= 2,
    );
    await eventually(
      async () => sent('/v1/companies').length,
      (n) => n >= 1,
    );
    await eventually(
      async () => sent('/v1/actions').length,
      (n) => n >= 2,
    );

    expect(collectorAnswers.length).toBeGreaterThanOrEqual(7);
    expect(collectorAnswers.filter((answer) => answer.status < 200 || answer.status > 299)).toEqual([]);
    expect(pageErrors).toEqual([]);

    // Everything is searchable, and the anonymous visit is the user's.
    await rt.waitUntilConsumed();
    await eventually(
      () => count({ term: { user_id: 'ada-browser' } }),
      (n) => n === 4,
    );
    expect(await count({ term: { anonymous_id: anonymousId } })).toBe(3);
    expect(await count({ bool: { filter: [{ term: { user_id: 'ada-browser' } }, { term: { event_type: 'api_call' } }] } })).toBe(2);
    expect(await count({ bool: { filter: [{ term: { user_id: 'ada-browser' } }, { term: { 'action_name.raw': 'Viewed Pricing' } }] } })).toBe(1);
    expect(await count({ bool: { filter: [{ term: { company_id: 'acme-browser' } }, { term: { 'action_name.raw': 'Started Checkout' } }] } })).toBe(1);
    const captured = await rt.management('POST', '/search/~/search/events?from=-1h&to=now', {}, { query: { term: { 'request.verb': 'POST' } }, size: 5 });
    expect(captured.body.hits.hits.map((hit: { _source: { request: { uri: string } } }) => new URL(hit._source.request.uri).pathname)).toEqual(['/api/orders']);

    const user = await rt.management('GET', '/search/~/users/ada-browser');
    expect(user.body._source).toMatchObject({
      user_id: 'ada-browser',
      anonymous_id: anonymousId,
      metadata: { email: 'ada@acme.example' },
      campaign: { utm_source: 'newsletter', utm_campaign: 'launch' },
    });
    const company = await rt.management('GET', '/search/~/companies/acme-browser');
    expect(company.body._source).toMatchObject({ company_id: 'acme-browser', company_domain: 'acme.example', metadata: { plan: 'growth' } });
    const scope = rt.credentials;
    expect((await rt.stores.profiles.get(scope.org_id, scope.app_id, 'visitor', anonymousId))?.document).toMatchObject({
      anonymous_id: anonymousId,
      user_id: 'ada-browser',
      campaign: { utm_source: 'newsletter' },
    });
  }, 120_000);
});
