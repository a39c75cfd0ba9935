import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { promisify } from 'node:util';
import { setOrgStatus } from '../../functions/organisations/org-status';
import { managementScopes } from '../../schemas/scopes';
import { emulatorEndpoints } from './support/emulators';
import { send, startTestRuntime, type TestRuntime, type TestResponse } from './support/runtime';

/** OAuth password flow, org users, minting, revocation, expiry and org status, over HTTP on the emulators. */
describe('OAuth and access tokens API', () => {
  let rt: TestRuntime;
  let otherToken: string;

  beforeAll(async () => {
    rt = await startTestRuntime('oauth', { managementAuth: { orgStatusTtlMs: 0 } });
    await rt.apps.createOrgWithApp({ orgId: 'org_other', orgName: 'Other', appId: 'app_other', appName: 'Other' });
    otherToken = await rt.issueToken({ org_id: 'org_other', app_id: 'app_other' });
  });
  afterAll(() => rt?.dispose());

  const tokenUrl = (orgId = rt.credentials.org_id) => `${rt.credentials.management_url}/v1/${orgId}/oauth/access_tokens`;
  const form = (fields: Record<string, string>, orgId?: string) =>
    send(tokenUrl(orgId), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
  const json = (fields: Record<string, unknown>, orgId?: string) =>
    send(tokenUrl(orgId), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) });
  /** A request from a given loopback source address (every 127.x address is this machine's). */
  const requestFrom = (source: string, url: string, contentType: string, body: string) =>
    new Promise<TestResponse>((resolve, reject) => {
      const request = httpRequest(url, { method: 'POST', localAddress: source, headers: { 'content-type': contentType } }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
          resolve({ status: response.statusCode ?? 0, headers, body: text ? JSON.parse(text) : undefined });
        });
      });
      request.on('error', reject);
      request.end(body);
    });
  const formFrom = (source: string, fields: Record<string, string>) =>
    requestFrom(source, tokenUrl(), 'application/x-www-form-urlencoded', new URLSearchParams(fields).toString());
  const admin = () => ({ grant_type: 'password', username: rt.credentials.admin_username!, password: rt.credentials.admin_password! });
  const as = (token: string, method: string, path: string, body?: unknown) => rt.management(method, path, { authorization: `Bearer ${token}` }, body);
  const expectOAuthError = (response: TestResponse, status: number, error: string) => {
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error, error_description: expect.any(String) });
    expect(response.headers.get('cache-control')).toBe('no-store');
  };

  describe('password flow', () => {
    it('issues a bearer token for a form body, with every scope of an admin user', async () => {
      const response = await form(admin());
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: managementScopes.join(' ') });
      const users = await as(response.body.access_token, 'GET', '/~/organizations/users');
      expect(users.status).toBe(200);
      expect(users.body.users).toEqual([expect.objectContaining({ username: 'admin', scopes: ['admin'] })]);
      expect(JSON.stringify(users.body)).not.toMatch(/password|scrypt/);
    });

    it('accepts a JSON body and comma- or space-separated scopes', async () => {
      const response = await json({ ...admin(), scope: 'read:events,create:access_tokens' });
      expect(response.status).toBe(200);
      expect(response.body.scope).toBe('read:events create:access_tokens');
      expect((await as(response.body.access_token, 'GET', '/~/oauth/access_tokens?target=collector')).status).toBe(200);
      expect((await as(response.body.access_token, 'GET', '/~/organizations/users')).status).toBe(401);
    });

    it('gives the same 401 invalid_grant for a wrong password and an unknown user', async () => {
      const wrong = await form({ ...admin(), password: 'not-the-password' });
      const unknown = await form({ ...admin(), username: 'nobody' });
      const otherOrg = await form(admin(), 'org_other');
      expectOAuthError(wrong, 401, 'invalid_grant');
      expect(unknown.body).toEqual(wrong.body);
      expect(otherOrg.body).toEqual(wrong.body);
      // Names longer than any key DynamoDB holds (they were a 500 from the table) are unknown users too.
      const long = 'x'.repeat(3000);
      expect((await form({ ...admin(), username: long, password: 'not-the-password' })).body).toEqual(wrong.body);
      expect((await form({ ...admin(), password: 'not-the-password' }, long)).body).toEqual(wrong.body);
    });

    it('answers bad requests in RFC 6749 form', async () => {
      expectOAuthError(await form({ ...admin(), grant_type: 'client_credentials' }), 400, 'unsupported_grant_type');
      expectOAuthError(await form({ grant_type: 'password', password: 'x' }), 400, 'invalid_request');
      expectOAuthError(await json({ grant_type: 'password', username: 'admin' }), 400, 'invalid_request');
      expectOAuthError(await form({ ...admin(), scope: 'read:everything' }), 400, 'invalid_scope');
    });

    it('refuses a scope the user does not hold with invalid_scope', async () => {
      const created = await rt.management('POST', '/~/organizations/users', {}, { username: 'reader', password: 'reader-password-1', scopes: ['read:events'] });
      expect(created.status).toBe(201);
      const denied = await form({ grant_type: 'password', username: 'reader', password: 'reader-password-1', scope: 'read:events delete:apps' });
      expectOAuthError(denied, 400, 'invalid_scope');
      expect(denied.body.error_description).toMatch(/delete:apps/);
      const granted = await form({ grant_type: 'password', username: 'reader', password: 'reader-password-1' });
      expect(granted.body.scope).toBe('read:events');
    });

    it('throttles failed sign-ins per account and source with growing delays, never locking the owner out from a clean source', async () => {
      const created = await rt.management('POST', '/~/organizations/users', {}, { username: 'victim', password: 'victim-password-1', scopes: ['read:events'] });
      expect(created.status).toBe(201);
      const guess = (source: string, password: string) => formFrom(source, { grant_type: 'password', username: 'victim', password });
      // One attacker source: five free failures, then 429 with Retry-After while its delay runs (its refusals are not counted).
      const answers: TestResponse[] = [];
      for (let i = 0; i < 12; i++) answers.push(await guess('127.0.0.2', `guess-${i}`));
      expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, ...Array.from({ length: 7 }, () => 429)]);
      expectOAuthError(answers[5]!, 429, 'too_many_requests');
      expect(Number(answers[5]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Even the right password waits at that source; from another source the owner signs in at once.
      expect((await guess('127.0.0.2', 'victim-password-1')).status).toBe(429);
      expect((await guess('127.0.0.1', 'victim-password-1')).status).toBe(200);

      // Nine more sources, five failures each, bring the account to 50 failures: from then on a source
      // that has failed on it waits after its failure, while a source that has not failed still signs in.
      for (let host = 3; host <= 11; host++) for (let i = 0; i < 5; i++) expect((await guess(`127.0.0.${host}`, `spray-${i}`)).status).toBe(401);
      expect((await guess('127.0.0.13', 'spray-x')).status).toBe(401);
      expect((await guess('127.0.0.13', 'victim-password-1')).status).toBe(429);
      expect((await guess('127.0.0.14', 'victim-password-1')).status).toBe(200);
      // The console's sign-in shares the throttle.
      const consoleSignIn = (source: string, password: string) =>
        requestFrom(
          source,
          `${rt.credentials.management_url}/oauth/console_session`,
          'application/json',
          JSON.stringify({ org_id: rt.credentials.org_id, username: 'victim', password }),
        );
      expect((await consoleSignIn('127.0.0.2', 'victim-password-1')).status).toBe(429);
      expect((await consoleSignIn('127.0.0.15', 'victim-password-1')).status).toBe(200);
    });
  });

  describe('org users', () => {
    it('creates, lists and deletes users; a deleted user cannot log in', async () => {
      const body = { username: 'ops@example.com', password: 'a-long-password', scopes: ['read:events', 'read:users'] };
      const created = await rt.management('POST', '/~/organizations/users', {}, body);
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        org_id: rt.credentials.org_id,
        username: 'ops@example.com',
        scopes: ['read:events', 'read:users'],
        created_at: expect.any(String),
      });
      expect((await rt.management('POST', '/v1/~/organizations/users', {}, body)).body.error.details).toEqual([
        { field: 'username', reason: 'already exists' },
      ]);
      const listed = await rt.management('GET', '/v1/~/organizations/users');
      expect(listed.body.users.map((u: { username: string }) => u.username)).toContain('ops@example.com');
      expect((await form({ grant_type: 'password', username: body.username, password: body.password })).status).toBe(200);

      expect((await rt.management('DELETE', `/~/organizations/users/${encodeURIComponent(body.username)}`)).status).toBe(204);
      expect((await rt.management('DELETE', `/~/organizations/users/${encodeURIComponent(body.username)}`)).status).toBe(404);
      expectOAuthError(await form({ grant_type: 'password', username: body.username, password: body.password }), 401, 'invalid_grant');
    });

    it('names the field and reason of bad input', async () => {
      const short = await rt.management('POST', '/~/organizations/users', {}, { username: 'shorty', password: 'short', scopes: ['read:events'] });
      expect(short.status).toBe(400);
      expect(short.body.error.details).toEqual([{ field: 'password', reason: 'must be at least 12 characters' }]);
      const scopes = await rt.management('POST', '/~/organizations/users', {}, { username: 'x', password: 'long-enough-password', scopes: ['read:nothing'] });
      expect(scopes.status).toBe(400);
      expect(scopes.body.error.details[0].field).toBe('scopes[0]');
      const reserved = await rt.management(
        'POST',
        '/~/organizations/users',
        {},
        { username: 'bootstrap', password: 'long-enough-password', scopes: ['read:events'] },
      );
      expect(reserved.status).toBe(400);
      expect(reserved.body.error.details).toEqual([{ field: 'username', reason: '"bootstrap" is reserved for the local bootstrap token' }]);
    });

    it('does not let a caller create a user more powerful than itself', async () => {
      const limited = await rt.issueToken({ scopes: ['update:organizations', 'read:events'] });
      const denied = await as(limited, 'POST', '/~/organizations/users', { username: 'boss', password: 'a-long-password', scopes: ['admin'] });
      expect(denied.status).toBe(401);
      expect(denied.body.error.details).toContainEqual({ field: 'scopes', reason: 'missing scope delete:apps' });
      expect((await as(limited, 'POST', '/~/organizations/users', { username: 'peer', password: 'a-long-password', scopes: ['read:events'] })).status).toBe(
        201,
      );
    });
  });

  describe('minting and revocation', () => {
    it("lists the caller's own tokens still usable, newest first, never their texts", async () => {
      const minted = await rt.management('GET', '/~/oauth/access_tokens?scope=read:events&expiration=2031-01-01T00:00:00Z');
      const revoked = await rt.management('GET', '/~/oauth/access_tokens?scope=read:events');
      expect((await rt.management('DELETE', `/~/oauth/access_tokens/${revoked.body._id}`)).status).toBe(204);
      const listed = await rt.management('GET', '/~/oauth/access_tokens/issued');
      expect(listed.status).toBe(200);
      const ids = (listed.body as { _id: string }[]).map((token) => token._id);
      expect(ids).toContain(minted.body._id);
      expect(ids).not.toContain(revoked.body._id);
      expect(listed.body.find((token: { _id: string }) => token._id === minted.body._id)).toEqual({
        _id: minted.body._id,
        app_id: rt.credentials.app_id,
        scopes: ['read:events'],
        issued_at: expect.any(String),
        expires_at: '2031-01-01T00:00:00.000Z',
      });
      expect(JSON.stringify(listed.body)).not.toContain(minted.body.token);
      // Another organisation's caller sees only its own.
      expect(((await as(otherToken, 'GET', '/~/oauth/access_tokens/issued')).body as { _id: string }[]).map((t) => t._id)).not.toContain(minted.body._id);
    });

    it("mints a token with a subset of the caller's scopes", async () => {
      const minted = await rt.management('GET', '/~/oauth/access_tokens?scope=read:events%20create:access_tokens&expiration=2030-01-01T00:00:00Z');
      expect(minted.status).toBe(200);
      expect(minted.body).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), token: expect.any(String) });
      const claims = JSON.parse(Buffer.from(minted.body.token.split('.')[1], 'base64url').toString());
      expect(claims).toMatchObject({
        org_id: rt.credentials.org_id,
        app_id: rt.credentials.app_id,
        scopes: ['read:events', 'create:access_tokens'],
        exp: Date.parse('2030-01-01T00:00:00Z') / 1000,
        jti: minted.body._id,
      });

      // The minted token can mint only within its own scopes: asking for more is a 401 naming the scope.
      const wider = await as(minted.body.token, 'GET', '/~/oauth/access_tokens?scope=read:events,delete:apps');
      expect(wider.status).toBe(401);
      expect(wider.body.error.details).toEqual([{ field: 'scope', reason: 'missing scope delete:apps' }]);
      expect((await as(minted.body.token, 'GET', '/~/oauth/access_tokens?scope=read:events')).status).toBe(200);
    });

    it('defaults to a one-year token and refuses a past, distant or invalid expiration', async () => {
      const minted = await rt.management('GET', '/~/oauth/access_tokens');
      const exp = JSON.parse(Buffer.from(minted.body.token.split('.')[1], 'base64url').toString()).exp;
      expect(Math.abs(exp * 1000 - (Date.now() + 365.25 * 86_400_000))).toBeLessThan(60_000);
      for (const expiration of ['2020-01-01T00:00:00Z', new Date(Date.now() + 6 * 366 * 86_400_000).toISOString(), 'next-week']) {
        const refused = await rt.management('GET', `/~/oauth/access_tokens?expiration=${encodeURIComponent(expiration)}`);
        expect(refused.status).toBe(400);
        expect(refused.body.error.details[0].field).toBe('expiration');
      }
      expect((await rt.management('GET', '/~/oauth/access_tokens?target=everything')).body.error.details[0].field).toBe('target');
    });

    it("hands out the app's collector application id for target=collector", async () => {
      const collector = await rt.management('GET', '/v1/~/oauth/access_tokens?target=collector');
      expect(collector.status).toBe(200);
      expect(collector.body).toEqual({ _id: rt.credentials.app_id, token: rt.credentials.collector_application_id });
    });

    it("revokes a token of the caller's org: the next request with it is a 401", async () => {
      const minted = await rt.management('GET', '/~/oauth/access_tokens?scope=create:access_tokens');
      expect((await as(minted.body.token, 'GET', '/~/oauth/access_tokens?target=collector')).status).toBe(200);
      expect((await rt.management('DELETE', `/~/oauth/access_tokens/${minted.body._id}`)).status).toBe(204);
      const refused = await as(minted.body.token, 'GET', '/~/oauth/access_tokens?target=collector');
      expect(refused.status).toBe(401);
      expect(refused.body.error.details).toEqual([{ field: 'authorization', reason: 'revoked' }]);
    });

    it("answers 404 for an unknown token id and for another org's token", async () => {
      expect((await rt.management('DELETE', '/~/oauth/access_tokens/000000000000000000000000')).status).toBe(404);
      const otherJti = JSON.parse(Buffer.from(otherToken.split('.')[1]!, 'base64url').toString()).jti;
      expect((await rt.management('DELETE', `/~/oauth/access_tokens/${otherJti}`)).status).toBe(404);
      expect((await as(otherToken, 'GET', '/~/oauth/access_tokens?target=collector')).status).toBe(200);
    });
  });

  describe('token checks', () => {
    it('accepts both "Bearer <token>" and a bare token', async () => {
      const token = rt.credentials.management_token;
      expect((await rt.management('GET', '/~/organizations/users', { authorization: `Bearer ${token}` })).status).toBe(200);
      expect((await rt.management('GET', '/~/organizations/users', { authorization: token })).status).toBe(200);
      expect((await rt.management('GET', '/~/organizations/users', { authorization: '' })).status).toBe(401);
    });

    it('refuses an expired token and a signed token the service never issued', async () => {
      const expired = await rt.issueToken({ exp: Math.floor(Date.now() / 1000) - 5 });
      const answer = await as(expired, 'GET', '/~/organizations/users');
      expect(answer.status).toBe(401);
      expect(answer.body.error.details).toEqual([{ field: 'authorization', reason: 'has expired' }]);

      const { signManagementToken } = await import('../../functions/management-tokens/management-token');
      const { loadOrCreateSigningKey } = await import('../../bin/local/bootstrap');
      const unrecorded = signManagementToken(
        { sub: 'x', org_id: rt.credentials.org_id, app_id: rt.credentials.app_id, scopes: [...managementScopes] },
        await loadOrCreateSigningKey(rt.dataDir),
      );
      const unknown = await as(unrecorded, 'GET', '/~/organizations/users');
      expect(unknown.status).toBe(401);
      expect(unknown.body.error.details).toEqual([{ field: 'authorization', reason: 'unknown token' }]);
    });

    it("answers 402 while the org's subscription is inactive or cancelled", async () => {
      const call = () => as(otherToken, 'GET', '/~/organizations/users');
      expect((await call()).status).toBe(200);
      for (const status of ['inactive', 'cancelled'] as const) {
        await setOrgStatus(rt.clients.documents, rt.names.tables.resources, 'org_other', status);
        const refused = await call();
        expect(refused.status).toBe(402);
        expect(refused.body.error).toMatchObject({
          status: 402,
          code: 'payment_required',
          details: [{ field: 'organization.subscription_status', reason: status }],
        });
      }
      await setOrgStatus(rt.clients.documents, rt.names.tables.resources, 'org_other', 'active');
      expect((await call()).status).toBe(200);
      // The main org was never affected.
      expect((await rt.management('GET', '/~/organizations/users')).status).toBe(200);
    });

    it('sends X-RateLimit-* headers on authenticated answers', async () => {
      const answer = await rt.management('GET', '/~/organizations/users');
      expect(Number(answer.headers.get('x-ratelimit-limit'))).toBeGreaterThanOrEqual(500);
      expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
      expect(Number(answer.headers.get('x-ratelimit-reset')) % 60).toBe(0);
    });
  });

  describe('admin command', () => {
    const admin = async (...args: string[]) => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'bin/admin.ts', ...args, '--table', rt.names.tables.resources, '--endpoint', emulatorEndpoints().dynamodb, '--json'],
        { cwd: process.cwd() },
      );
      return JSON.parse(stdout);
    };

    it("bootstraps an org whose admin can log in, adds users and switches the org's status", async () => {
      const org = await admin('bootstrap', '--org-name', 'Acme');
      expect(org).toMatchObject({
        org_id: expect.stringMatching(/^org_/),
        app_id: expect.stringMatching(/^app_/),
        username: 'admin',
        password: expect.any(String),
      });
      expect(org.collector_application_id.length).toBeGreaterThanOrEqual(50);
      const login = await form({ grant_type: 'password', username: 'admin', password: org.password }, org.org_id);
      expect(login.status).toBe(200);
      const collector = await as(login.body.access_token, 'GET', '/~/oauth/access_tokens?target=collector');
      expect(collector.body).toEqual({ _id: org.app_id, token: org.collector_application_id });

      const user = await admin('create-user', org.org_id, 'analyst', '--scopes', 'read:events,read:users');
      expect(user).toMatchObject({ username: 'analyst', scopes: 'read:events read:users', password: expect.any(String) });
      expect((await form({ grant_type: 'password', username: 'analyst', password: user.password }, org.org_id)).body.scope).toBe('read:events read:users');

      await admin('set-org-status', org.org_id, 'cancelled');
      expect((await as(login.body.access_token, 'GET', '/~/oauth/access_tokens?target=collector')).status).toBe(402);
    });

    const run = (args: string[], env: Record<string, string> = {}) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], { cwd: process.cwd(), env: { ...process.env, ...env } }).then(
        (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
      );

    it('prints its usage on --help, and names an unknown option before the usage', async () => {
      const help = await run(['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('set-org-status  <org_id> active|inactive|cancelled');
      const unknown = await run(['bootstrap', '--tabel', 'x']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain("Unknown option '--tabel'");
      expect(unknown.stderr).toContain('usage: npm run admin');
    });

    it('finds the running local service by DATA_DIR when no --table is given', async () => {
      const created = await run(['create-user', rt.credentials.org_id, 'from-data-dir', '--scopes', 'read:events', '--json'], { DATA_DIR: rt.dataDir });
      expect(created.code).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({ org_id: rt.credentials.org_id, username: 'from-data-dir' });
      const nowhere = await run(['bootstrap'], { DATA_DIR: '/nonexistent' });
      expect(nowhere.code).toBe(2);
      expect(nowhere.stderr).toContain('no running local service in /nonexistent');
    });
  });
});
