import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { OrgUserStore } from '../../functions/organisations/org-user-store';
import { emulatorEndpoints } from './support/emulators';
import { send, startTestRuntime, type TestRuntime } from './support/runtime';

/** Deleting an org user revokes every token issued to them at once, over HTTP on the emulators. */
describe('deleting an org user', () => {
  let rt: TestRuntime;

  beforeAll(async () => {
    rt = await startTestRuntime('user-deletion', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
  });
  afterAll(() => rt?.dispose());

  const scopes = ['read:apps', 'create:access_tokens'];
  const login = async (username: string, password: string) => {
    const response = await send(`${rt.credentials.management_url}/v1/${rt.credentials.org_id}/oauth/access_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
    });
    return response;
  };
  const as = (token: string, method: string, path: string) => rt.management(method, path, { authorization: `Bearer ${token}` });
  const createUser = async (username: string) => {
    const password = `${username}-long-password`;
    expect((await rt.management('POST', '/~/organizations/users', {}, { username, password, scopes })).status).toBe(201);
    return password;
  };
  const loginToken = async (username: string, password: string) => {
    const response = await login(username, password);
    expect(response.status).toBe(200);
    return response.body.access_token as string;
  };
  const mint = async (token: string) => {
    const response = await as(token, 'GET', '/~/oauth/access_tokens?expiration=2030-01-01T00:00:00Z');
    expect(response.status).toBe(200);
    return response.body.token as string;
  };

  it('refuses every token of the deleted user from the next request on, and only theirs', async () => {
    const carolPassword = await createUser('carol');
    const davePassword = await createUser('dave');
    const first = await loginToken('carol', carolPassword);
    const second = await loginToken('carol', carolPassword);
    const minted = await mint(first);
    const fromMinted = await mint(minted);
    const dave = await loginToken('dave', davePassword);
    for (const token of [first, second, minted, fromMinted, dave]) expect((await as(token, 'GET', '/~/apps')).status).toBe(200);

    expect((await rt.management('DELETE', '/~/organizations/users/carol')).status).toBe(204);

    for (const token of [first, second, minted, fromMinted]) {
      const refused = await as(token, 'GET', '/~/apps');
      expect(refused.status).toBe(401);
      expect(refused.body.error.details).toEqual([{ field: 'authorization', reason: 'revoked' }]);
    }
    expect((await as(dave, 'GET', '/~/apps')).status).toBe(200);
    expect((await login('carol', carolPassword)).status).toBe(401);
    expect((await rt.management('DELETE', '/~/organizations/users/carol')).status).toBe(404);
    expect((await rt.management('GET', '/~/organizations/users')).body.users.map((u: { username: string }) => u.username)).not.toContain('carol');

    // The name can be taken again; the new user's tokens work, the old ones stay refused.
    const newPassword = await createUser('carol');
    expect((await as(await loginToken('carol', newPassword), 'GET', '/~/apps')).status).toBe(200);
    expect((await as(minted, 'GET', '/~/apps')).status).toBe(401);
  });

  it('records no token for a user whose deletion is under way, and a repeated delete finishes a deletion that stopped part-way', async () => {
    const password = await createUser('erin');
    const token = await loginToken('erin', password);
    // As if a deletion crashed after marking the user, before revoking their tokens.
    expect(await new OrgUserStore(rt.clients.documents, rt.names.tables.resources).markDeleted(rt.credentials.org_id, 'erin', new Date())).toBe(true);

    const mintWhileDeleting = await as(token, 'GET', '/~/oauth/access_tokens');
    expect(mintWhileDeleting.status).toBe(401);
    expect(mintWhileDeleting.body.error.details).toEqual([{ field: 'authorization', reason: 'user deleted' }]);
    expect((await login('erin', password)).status).toBe(401);
    // Creating the name again must wait for the sweep.
    expect((await rt.management('POST', '/~/organizations/users', {}, { username: 'erin', password, scopes })).status).toBe(409);

    expect((await rt.management('DELETE', '/~/organizations/users/erin')).status).toBe(204);
    expect((await as(token, 'GET', '/~/apps')).status).toBe(401);
    expect((await rt.management('DELETE', '/~/organizations/users/erin')).status).toBe(404);
  });

  it('revokes the tokens when the admin command deletes the user', async () => {
    const password = await createUser('frank');
    const token = await mint(await loginToken('frank', password));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        'bin/admin.ts',
        'delete-user',
        rt.credentials.org_id,
        'frank',
        '--table',
        rt.names.tables.resources,
        '--endpoint',
        emulatorEndpoints().dynamodb,
        '--json',
      ],
      { cwd: process.cwd() },
    );
    expect(JSON.parse(stdout)).toEqual({ org_id: rt.credentials.org_id, username: 'frank', revoked_tokens: '2' });
    expect((await as(token, 'GET', '/~/apps')).status).toBe(401);
  });
});
