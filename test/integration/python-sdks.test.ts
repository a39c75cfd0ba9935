import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pythonWith } from './support/python-env';
import { freePort, listening } from './support/service-process';
import { eventually, send, startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * The Moesif SDKs of Python, unmodified from PyPI: moesifwsgi in a Flask app and moesifasgi in a
 * FastAPI app, configured only through their documented settings (APPLICATION_ID, BASE_URI,
 * IDENTIFY_USER, IDENTIFY_COMPANY, batching). They send API calls, users and companies to the local
 * collector, where search finds them, and they apply the governance rule they fetch.
 */

const APPS = [
  { name: 'Flask + moesifwsgi', file: 'flask_app.py', sdk: 'moesifwsgi' },
  { name: 'FastAPI + moesifasgi', file: 'fastapi_app.py', sdk: 'moesifasgi' },
] as const;

describe('the Moesif SDKs of Python', () => {
  let rt: TestRuntime;
  let python: string;

  beforeAll(async () => {
    python = pythonWith(join(__dirname, 'python-sdks/requirements.txt'));
    rt = await startTestRuntime('python-sdks');
    // Made before the apps start: the SDKs fetch their rules when the middleware is created.
    const rule = await rt.management(
      'POST',
      '/~/governance/rules',
      {},
      {
        name: 'Block /blocked',
        type: 'regex',
        state: 1,
        block: true,
        // These SDKs match request.route against the whole URI (moesif-nodejs against the path): a rule for both ends with the path.
        regex_config: [{ conditions: [{ path: 'request.route', value: '/blocked$' }] }],
        response: { status: 429, headers: { 'X-Blocked-By': 'governance' }, body: { error: 'This route is blocked' } },
      },
    );
    expect(rule.status).toBe(201);
  }, 600_000);
  afterAll(() => rt?.dispose());

  describe.each(APPS)('$name', ({ file, sdk }) => {
    let app: ChildProcess;
    let url: string;
    let output = '';

    beforeAll(async () => {
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      app = spawn(python, [join(__dirname, 'python-sdks', file)], {
        env: {
          ...process.env,
          COLLECTOR_URL: rt.credentials.collector_url,
          APPLICATION_ID: rt.credentials.collector_application_id,
          PORT: String(port),
          PYTHONUNBUFFERED: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      app.stdout!.on('data', (chunk) => (output += String(chunk)));
      app.stderr!.on('data', (chunk) => (output += String(chunk)));
      const up = await eventually(
        () => listening(port),
        (open) => open,
        30_000,
      );
      if (!up) throw new Error(`${file} did not start:\n${output}`);
    }, 60_000);
    afterAll(async () => {
      app.kill('SIGTERM');
      await new Promise((done) => (app.exitCode !== null ? done(undefined) : app.once('exit', done)));
    });

    it('sends its API calls, with the user and company it identifies, and search finds them', async () => {
      const user = `${sdk}-user`;
      for (let i = 0; i < 3; i += 1) {
        const answer = await send(`${url}/items/${i}?q=${sdk}`, { headers: { 'x-user-id': user, 'x-company-id': `${sdk}-co` } });
        expect(answer.status).toBe(200);
      }
      const found = await eventually(
        () => rt.management('POST', '/search/~/search/events?from=-1h&to=now', {}, { size: 10, query: { term: { 'user_id.raw': user } } }),
        (res) => res.body?.hits?.total === 3,
        30_000,
      );
      expect(found.body.hits.total).toBe(3);
      const source = found.body.hits.hits[0]._source;
      expect(source).toMatchObject({ user_id: user, company_id: `${sdk}-co`, request: { verb: 'GET' }, response: { status: 200 } });
      expect(source.request.uri).toContain(`/items/`);
    }, 60_000);

    it('sends the users and companies it updates', async () => {
      const body = JSON.stringify({ user_id: `${sdk}-profile`, company_id: `${sdk}-company`, email: `${sdk}@example.com`, domain: `${sdk}.example.com` });
      expect((await send(`${url}/profile`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(200);
      const userFound = await eventually(
        () => rt.management('GET', `/search/~/users/${sdk}-profile`),
        (res) => res.status === 200,
      );
      expect(userFound.body._source).toMatchObject({ user_id: `${sdk}-profile`, company_id: `${sdk}-company`, metadata: { email: `${sdk}@example.com`, sdk } });
      const companyFound = await eventually(
        () => rt.management('GET', `/search/~/companies/${sdk}-company`),
        (res) => res.status === 200,
      );
      expect(companyFound.body._source).toMatchObject({ company_id: `${sdk}-company`, company_domain: `${sdk}.example.com` });
    }, 60_000);

    it('applies the governance rule it fetched: a blocked route gets the rule’s answer; others pass', async () => {
      const blocked = await eventually(
        () => send(`${url}/blocked`, {}),
        (res) => res.status === 429,
      );
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('x-blocked-by')).toBe('governance');
      expect(blocked.body).toEqual({ error: 'This route is blocked' });
      expect((await send(`${url}/items/ok`, {})).status).toBe(200);
    }, 60_000);
  });
});
