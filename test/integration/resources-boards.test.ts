import { loadOrCreateSigningKey } from '../../bin/local/bootstrap';
import { issueManagementToken } from '../../functions/management-tokens/token-issuer';
import { TokenStore } from '../../functions/management-tokens/token-store';
import { managementScopes, type ManagementScope } from '../../schemas/scopes';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/** Dashboards, workspaces (comments, templates, ACL), email templates and the keystore over HTTP on the real emulators. */
describe('boards: dashboards, workspaces, email templates, keystore', () => {
  let rt: TestRuntime;
  /** Same org and app as the bootstrap token, another user: comment ownership. */
  let otherUserToken: string;
  /** Another org and app: tenant isolation. */
  let otherOrgToken: string;

  async function tokenFor(sub: string, orgId: string, appId: string, scopes: readonly ManagementScope[]): Promise<string> {
    const store = new TokenStore(rt.clients.documents, rt.names.tables.resources);
    return (await issueManagementToken(store, await loadOrCreateSigningKey(rt.dataDir), { sub, org_id: orgId, app_id: appId, scopes })).token;
  }

  beforeAll(async () => {
    rt = await startTestRuntime('boards', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
    await rt.apps.createOrgWithApp({ orgId: 'org_other', orgName: 'Other', appId: 'app_other', appName: 'Other' });
    otherUserToken = await tokenFor('mallory', rt.credentials.org_id, rt.credentials.app_id, managementScopes);
    otherOrgToken = await tokenFor('eve', 'org_other', 'app_other', managementScopes);
  });
  afterAll(() => rt?.dispose());

  const api = (method: string, path: string, body?: unknown, token?: string) =>
    rt.management(method, path, token ? { authorization: `Bearer ${token}` } : {}, body);
  const fieldsOf = (response: { body: any }) => (response.body.error.details as { field: string }[]).map((d) => d.field);
  const ids = (response: { body: any }) => (response.body as { _id: string }[]).map((d) => d._id);

  const material = (n: number) => Buffer.alloc(48, n).toString('base64');
  const policy = { acl: [{ grantee: 'team-a', permission: 'read' }], resource: {} };
  const workspaceBody = (overrides: Record<string, unknown> = {}) => ({
    name: 'Errors by route',
    policy,
    chart: { view: 'segmentation', url_query: 'filters=status:500', es_query: { query: { term: { 'response.status': 500 } }, size: 0 } },
    ...overrides,
  });
  const createWorkspace = async (overrides: Record<string, unknown> = {}) => {
    const created = await api('POST', '/~/workspaces', workspaceBody(overrides));
    expect(created.status).toBe(201);
    return created.body as { _id: string } & Record<string, any>;
  };
  const createDashboard = async (body: Record<string, unknown>) => {
    const created = await api('POST', '/~/dashboards', body);
    expect(created.status).toBe(201);
    return created.body as { _id: string } & Record<string, any>;
  };

  describe('dashboards', () => {
    it('create, get, update (POST and PUT), list, delete: 404 vs 410', async () => {
      const ws = await createWorkspace();
      const dash = await createDashboard({ name: 'Ops', workspace_ids: [[ws._id]], sort_order: 2, policy });
      expect(dash).toMatchObject({
        name: 'Ops',
        org_id: rt.credentials.org_id,
        app_id: rt.credentials.app_id,
        dashboard_ids: [],
        workspace_ids: [[ws._id]],
        sort_order: 2,
        policy,
      });
      expect(typeof dash.auth_user_id).toBe('string');
      expect(dash.created).toBe(dash.created_at);
      expect((await api('GET', `/~/dashboards/${dash._id}`)).body).toEqual(dash);
      expect((await api('GET', `/v1/~/dashboards/${dash._id}`)).body).toEqual(dash);

      const updated = await api('POST', `/~/dashboards/${dash._id}`, { name: 'Operations', dashboard_id: dash._id });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: 'Operations', workspace_ids: [[ws._id]], created: dash.created });
      expect(updated.body.dashboard_id).toBeUndefined();
      expect((await api('PUT', `/~/dashboards/${dash._id}`, { sort_order: 7 })).body).toMatchObject({ name: 'Operations', sort_order: 7 });
      expect(ids(await api('GET', '/~/dashboards'))).toContain(dash._id);

      expect((await api('DELETE', `/~/dashboards/${dash._id}`)).status).toBe(204);
      expect((await api('GET', `/~/dashboards/${dash._id}`)).status).toBe(410);
      expect((await api('POST', `/~/dashboards/${dash._id}`, { name: 'x' })).status).toBe(410);
      expect((await api('GET', '/~/dashboards/0000000000000000dead')).status).toBe(404);
      expect(ids(await api('GET', '/~/dashboards'))).not.toContain(dash._id);
      // The workspace it showed is untouched by a plain delete.
      expect((await api('GET', `/~/workspaces/${ws._id}`)).status).toBe(200);
    });

    it('refuses bad input with 400 naming the field, and writes nothing', async () => {
      const before = (await api('GET', '/~/dashboards?take=1000')).body.length;
      const cases: [unknown, string][] = [
        [{}, 'name'],
        [{ name: 'x', colour: 'red' }, 'colour'],
        [{ name: 'x', parent: 'nope' }, 'parent'],
        [{ name: 'x', dashboard_ids: ['0000000000000000beef'] }, 'dashboard_ids[0]'],
        [{ name: 'x', workspace_ids: [[], ['0000000000000000beef']] }, 'workspace_ids[1][0]'],
        [{ name: 'x', workspace_ids: 'abc' }, 'workspace_ids'],
        [{ name: 'x', policy: { acl: [{ grantee: 'a' }], resource: {} } }, 'policy.acl[0].permission'],
        [
          {
            name: 'x',
            policy: {
              acl: [
                { grantee: 'a', permission: 'r' },
                { grantee: 'a', permission: 'w' },
              ],
              resource: {},
            },
          },
          'policy.acl',
        ],
        [{ name: 'x', sort_order: 'first' }, 'sort_order'],
      ];
      for (const [body, field] of cases) {
        const answer = await api('POST', '/~/dashboards', body);
        expect([answer.status, body]).toEqual([400, body]);
        expect(fieldsOf(answer)).toContain(field);
      }
      expect((await api('GET', '/~/dashboards?take=1000')).body.length).toBe(before);

      const dash = await createDashboard({ name: 'Self' });
      expect(fieldsOf(await api('POST', `/~/dashboards/${dash._id}`, { dashboard_id: 'other' }))).toEqual(['dashboard_id']);
      expect(fieldsOf(await api('POST', `/~/dashboards/${dash._id}`, { parent: dash._id }))).toEqual(['parent']);
      expect(fieldsOf(await api('POST', `/~/dashboards/${dash._id}`, { created: 'yesterday' }))).toEqual(['created']);
      expect(fieldsOf(await api('POST', `/~/dashboards/${dash._id}`, { org_id: 'someone-else' }))).toEqual(['org_id']);
      expect((await api('GET', `/~/dashboards/${dash._id}`)).body).toEqual(dash);
    });

    it('a grid layout sets the rows when sent alone, must agree with them when both are sent, and survives copies', async () => {
      const [a, b, c] = [await createWorkspace({ name: 'A' }), await createWorkspace({ name: 'B' }), await createWorkspace({ name: 'C' })];
      const layout = [
        { workspace_id: b._id, x: 6, y: 0, w: 6, h: 6 },
        { workspace_id: a._id, x: 0, y: 0, w: 6, h: 8 },
        { workspace_id: c._id, x: 0, y: 8, w: 12, h: 4 },
      ];
      const dash = await createDashboard({ name: 'Grid', layout });
      expect(dash).toMatchObject({ workspace_ids: [[a._id, b._id], [c._id]], layout });

      // Rows alone (an older client, or "add to dashboard") keep the tiles of workspaces still listed.
      const rowsOnly = await api('POST', `/~/dashboards/${dash._id}`, { workspace_ids: [[a._id], [c._id]] });
      expect(rowsOnly.body.layout).toEqual([layout[1], layout[2]]);

      const refused: [unknown, string][] = [
        [{ workspace_ids: [[a._id]], layout: [layout[0]] }, 'layout[0].workspace_id'],
        [{ layout: [layout[1], { ...layout[1], x: 1 }] }, 'layout[1].workspace_id'],
        [{ layout: [{ ...layout[0], x: 8 }] }, 'layout[0].w'],
        [{ layout: [{ ...layout[0], h: 1 }] }, 'layout[0].h'],
        [{ layout: [{ workspace_id: '0000000000000000beef', x: 0, y: 0, w: 4, h: 4 }] }, 'workspace_ids[0][0]'],
      ];
      for (const [body, field] of refused) {
        const answer = await api('POST', `/~/dashboards/${dash._id}`, body);
        expect([answer.status, fieldsOf(answer)]).toEqual([400, [field]]);
      }

      const copy = (await api('POST', `/~/dashboards/${dash._id}/copy`)).body;
      const copied = copy.workspace_ids.flat();
      expect(copy.layout.map((tile: { workspace_id: string }) => tile.workspace_id)).toEqual(copied);
      expect(copy.layout.map(({ workspace_id: _id, ...place }: Record<string, unknown>) => place)).toEqual([
        { x: 0, y: 0, w: 6, h: 8 },
        { x: 0, y: 8, w: 12, h: 4 },
      ]);
    });

    it('ACL: grant by query or body, replace a permission, revoke; unknown grantee 404', async () => {
      const dash = await createDashboard({ name: 'Shared' });
      const granted = await api('POST', `/~/dashboards/${dash._id}/policy/acl?grantee=alice&permission=read`);
      expect(granted.status).toBe(200);
      expect(granted.body.policy).toEqual({ acl: [{ grantee: 'alice', permission: 'read' }], resource: {} });
      const byBody = await api('POST', `/~/dashboards/${dash._id}/policy/acl`, { grantee: 'bob', permission: 'edit' });
      expect(byBody.body.policy.acl).toEqual([
        { grantee: 'alice', permission: 'read' },
        { grantee: 'bob', permission: 'edit' },
      ]);
      const replaced = await api('POST', `/~/dashboards/${dash._id}/policy/acl?grantee=alice&permission=admin`);
      expect(replaced.body.policy.acl).toEqual([
        { grantee: 'bob', permission: 'edit' },
        { grantee: 'alice', permission: 'admin' },
      ]);

      expect(fieldsOf(await api('POST', `/~/dashboards/${dash._id}/policy/acl?grantee=carol`))).toEqual(['permission']);
      const revoked = await api('DELETE', `/~/dashboards/${dash._id}/policy/acl?grantee=bob`);
      expect(revoked.status).toBe(200);
      expect(revoked.body.policy.acl).toEqual([{ grantee: 'alice', permission: 'admin' }]);
      const missing = await api('DELETE', `/~/dashboards/${dash._id}/policy/acl?grantee=bob`);
      expect(missing.status).toBe(404);
      expect(fieldsOf(missing)).toEqual(['grantee']);
      expect((await api('POST', '/~/dashboards/0000000000000000dead/policy/acl?grantee=a&permission=r')).status).toBe(404);
    });

    it('copy duplicates the tree with new ids; comments and view counts are not copied', async () => {
      const ws = await createWorkspace({ name: 'Latency', view_count: 12 });
      expect((await api('POST', `/~/workspaces/${ws._id}/comments`, { message: 'slow on Mondays' })).status).toBe(201);
      const root = await createDashboard({ name: 'Root', workspace_ids: [[ws._id]], policy });
      const child = await createDashboard({ name: 'Child', parent: root._id, workspace_ids: [[ws._id]] });

      const copied = await api('POST', `/~/dashboards/${root._id}/copy`);
      expect(copied.status).toBe(201);
      const copy = copied.body;
      expect(copy._id).not.toBe(root._id);
      expect(copy).toMatchObject({ name: 'Root (copy)', policy });
      const [[wsCopyId]] = copy.workspace_ids;
      expect(wsCopyId).not.toBe(ws._id);
      const wsCopy = (await api('GET', `/~/workspaces/${wsCopyId}`)).body;
      expect(wsCopy).toMatchObject({ name: 'Latency', chart: ws.chart, view_count: 0, comments: { summary: { count: 0 } } });

      const children = (await api('GET', '/~/dashboards?take=1000')).body.filter((d: any) => d.parent === copy._id);
      expect(children).toHaveLength(1);
      expect(children[0]).toMatchObject({ name: 'Child', workspace_ids: [[wsCopyId]] });
      expect(children[0]._id).not.toBe(child._id);
      // The original is unchanged.
      expect((await api('GET', `/~/dashboards/${root._id}`)).body).toEqual(root);

      const named = await api('POST', `/~/dashboard/${root._id}/copy`, { name: 'Root v2' });
      expect(named.body.name).toBe('Root v2');
      expect(fieldsOf(await api('POST', `/~/dashboards/${root._id}/copy?to_app_id=app_other`))).toEqual(['to_app_id']);
      expect((await api('POST', '/~/dashboards/0000000000000000dead/copy')).status).toBe(404);
    });

    it('cascade delete removes the tree and its own workspaces, keeps workspaces shown elsewhere', async () => {
      const own = await createWorkspace({ name: 'Own' });
      const childOwn = await createWorkspace({ name: 'Child own' });
      const shared = await createWorkspace({ name: 'Shared' });
      const root = await createDashboard({ name: 'Tree', workspace_ids: [[own._id, shared._id]] });
      const child = await createDashboard({ name: 'Branch', parent: root._id, workspace_ids: [[childOwn._id]] });
      const listed = await createDashboard({ name: 'Listed child' });
      expect((await api('POST', `/~/dashboards/${root._id}`, { dashboard_ids: [listed._id] })).status).toBe(200);
      const elsewhere = await createDashboard({ name: 'Elsewhere', workspace_ids: [[shared._id]] });

      const cascaded = await api('DELETE', `/~/dashboards/${root._id}/cascade`);
      expect(cascaded.status).toBe(200);
      expect(new Set(cascaded.body.deleted.dashboards)).toEqual(new Set([root._id, child._id, listed._id]));
      expect(cascaded.body.deleted.workspaces.sort()).toEqual([own._id, childOwn._id].sort());
      for (const id of [root._id, child._id, listed._id]) expect((await api('GET', `/~/dashboards/${id}`)).status).toBe(410);
      for (const id of [own._id, childOwn._id]) expect((await api('GET', `/~/workspaces/${id}`)).status).toBe(410);
      expect((await api('GET', `/~/workspaces/${shared._id}`)).status).toBe(200);
      expect((await api('GET', `/~/dashboards/${elsewhere._id}`)).status).toBe(200);
      expect((await api('DELETE', `/~/dashboards/${root._id}/cascade`)).status).toBe(410);
    });
  });

  describe('workspaces', () => {
    it('create needs name, policy and chart; es_query and time zone are checked', async () => {
      const missing = await api('POST', '/~/workspaces', {});
      expect(missing.status).toBe(400);
      expect(fieldsOf(missing).sort()).toEqual(['chart', 'name', 'policy']);
      const cases: [unknown, string][] = [
        [workspaceBody({ chart: { view: 'x' } }), 'chart.url_query'],
        [workspaceBody({ chart: { view: 'x', url_query: '', es_query: { query: { script: { script: 'x' } } } } }), 'chart.es_query.query.script'],
        [workspaceBody({ chart: { view: 'x', url_query: '', es_query: { size: 5000 } } }), 'chart.es_query.size'],
        [workspaceBody({ chart: { view: 'x', url_query: '', time_zone: 'Mars/Base' } }), 'chart.time_zone'],
        [workspaceBody({ drawings: [{ id: 'd1', name: 'SLO', type: 'line', value: 3 }] }), 'drawings[0].direction'],
        [workspaceBody({ template: { dynamic_time: true } }), 'template.dynamic_fields'],
        [workspaceBody({ is_template: true }), 'is_template'],
      ];
      for (const [body, field] of cases) {
        const answer = await api('POST', '/~/workspaces', body);
        expect([answer.status, field]).toEqual([400, field]);
        expect(fieldsOf(answer)).toContain(field);
      }
      const zoned = await createWorkspace({ chart: { view: 'time', url_query: '', time_zone: 'europe/berlin' } });
      expect(zoned.chart.time_zone).toBe('Europe/Berlin');
      expect(zoned).toMatchObject({ view_count: 0, is_template: false, comments: { summary: { count: 0 } } });
    });

    it('templates, type filter, update, delete 404 vs 410, ACL', async () => {
      const template = await createWorkspace({ name: 'Template', type: 'funnel', template: { dynamic_fields: ['user_id'], dynamic_time: true } });
      const plain = await createWorkspace({ name: 'Plain', type: 'funnel' });
      expect(template.is_template).toBe(true);
      const templates = ids(await api('GET', '/~/workspaces/templates'));
      expect(templates).toContain(template._id);
      expect(templates).not.toContain(plain._id);
      const funnels = ids(await api('GET', '/~/workspaces?type=funnel&take=1000'));
      expect(funnels).toEqual(expect.arrayContaining([template._id, plain._id]));

      const updated = await api('POST', `/~/workspaces/${plain._id}`, { name: 'Plain 2', template: { dynamic_fields: [] }, width: 6 });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: 'Plain 2', width: 6, is_template: true, created: plain.created });
      expect(fieldsOf(await api('POST', `/~/workspaces/${plain._id}`, { view_count: 1000 }))).toEqual(['view_count']);
      expect(
        fieldsOf(
          await api('POST', `/~/workspaces/${plain._id}`, { chart: { view: 'v', url_query: '', es_query: { aggs: { a: { scripted_metric: {} } } } } }),
        )[0],
      ).toMatch(/^chart\.es_query\.aggs/);

      const acl = await api('POST', `/~/workspaces/${plain._id}/policy/acl?grantee=ops&permission=edit`);
      expect(acl.body.policy.acl).toEqual([...policy.acl, { grantee: 'ops', permission: 'edit' }]);
      expect((await api('DELETE', `/~/workspaces/${plain._id}/policy/acl?grantee=team-a`)).body.policy.acl).toEqual([{ grantee: 'ops', permission: 'edit' }]);

      expect((await api('DELETE', `/~/workspaces/${plain._id}`)).status).toBe(204);
      expect((await api('GET', `/~/workspaces/${plain._id}`)).status).toBe(410);
      expect((await api('DELETE', `/~/workspaces/${plain._id}`)).status).toBe(410);
      expect((await api('GET', '/~/workspaces/0000000000000000dead')).status).toBe(404);
    });

    it('comments: summary kept correct on add, edit and delete; only the author edits or deletes', async () => {
      const ws = await createWorkspace({ name: 'Discussed' });
      const first = await api('POST', `/~/workspaces/${ws._id}/comments`, { message: 'first', mentions: ['bob'] });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ message: 'first', mentions: ['bob'], workspace_id: ws._id });
      const second = await api('POST', `/~/workspaces/${ws._id}/comments`, { message: 'second' });
      expect(second.body.mentions).toEqual([]);

      let doc = (await api('GET', `/~/workspaces/${ws._id}`)).body;
      expect(doc.comments.summary.count).toBe(2);
      expect(doc.comments.summary.latest_comment).toEqual(second.body);
      const listed = await api('GET', `/~/workspaces/${ws._id}/comments`);
      expect(listed.body.map((c: any) => c.message)).toEqual(['second', 'first']);

      expect(fieldsOf(await api('POST', `/~/workspaces/${ws._id}/comments`, { mentions: [] }))).toEqual(['message']);
      expect(fieldsOf(await api('POST', `/~/workspaces/${ws._id}/comments`, { message: 'x', author: 'me' }))).toEqual(['author']);

      const edited = await api('POST', `/~/workspaces/${ws._id}/comments/${second.body.comment_id}`, { message: 'second, edited' });
      expect(edited.status).toBe(200);
      doc = (await api('GET', `/~/workspaces/${ws._id}`)).body;
      expect(doc.comments.summary.latest_comment.message).toBe('second, edited');

      const notMine = await api('POST', `/~/workspaces/${ws._id}/comments/${second.body.comment_id}`, { message: 'hijack' }, otherUserToken);
      expect(notMine.status).toBe(401);
      expect(fieldsOf(notMine)).toEqual(['commentId']);
      expect((await api('DELETE', `/~/workspaces/${ws._id}/comments/${second.body.comment_id}`, undefined, otherUserToken)).status).toBe(401);

      expect((await api('DELETE', `/~/workspaces/${ws._id}/comments/${second.body.comment_id}`)).status).toBe(204);
      doc = (await api('GET', `/~/workspaces/${ws._id}`)).body;
      expect(doc.comments.summary).toEqual({ count: 1, latest_comment: first.body });
      expect((await api('POST', `/~/workspaces/${ws._id}/comments/${second.body.comment_id}`, { message: 'again' })).status).toBe(410);
      expect((await api('DELETE', `/~/workspaces/${ws._id}/comments/0000000000000000dead`)).status).toBe(404);

      expect((await api('DELETE', `/~/workspaces/${ws._id}/comments/${first.body.comment_id}`)).status).toBe(204);
      doc = (await api('GET', `/~/workspaces/${ws._id}`)).body;
      expect(doc.comments.summary).toEqual({ count: 0 });

      // Concurrent comments all count.
      await Promise.all(Array.from({ length: 6 }, (_, i) => api('POST', `/~/workspaces/${ws._id}/comments`, { message: `c${i}` })));
      expect((await api('GET', `/~/workspaces/${ws._id}`)).body.comments.summary.count).toBe(6);

      expect((await api('DELETE', `/~/workspaces/${ws._id}`)).status).toBe(204);
      expect((await api('GET', `/~/workspaces/${ws._id}/comments`)).status).toBe(410);
      expect((await api('POST', `/~/workspaces/${ws._id}/comments`, { message: 'late' })).status).toBe(410);
    });
  });

  describe('email templates', () => {
    const template = (cohorts: unknown[], overrides: Record<string, unknown> = {}) => ({
      name: 'Weekly usage',
      state: 1,
      addresses: { from: 'reports@example.com', cc: ['cc@example.com'], bcc: [] },
      cohorts,
      template: { subject: 'Your usage', editor: 'unlayer', design: { body: {} } },
      content: { html: '<p>{{calls}} calls</p>', chunks: {} },
      dynamic_fields: [{ token: 'calls', field: 'request.time', aggregator: 'sum' }],
      period: '1w',
      ...overrides,
    });

    it('CRUD with cohort references checked, cohort_id filter, 404 vs 410', async () => {
      const cohort = await api('POST', '/~/cohorts', { cohort_name: 'Active', cohort_type: 'user', criteria: { term: { 'user_id.raw': 'alice' } } });
      expect(cohort.status).toBe(201);
      const created = await api('POST', '/~/emails/templates', template([{ id: cohort.body._id, type: 'user' }]));
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Weekly usage', state: 1, org_id: rt.credentials.org_id, app_id: rt.credentials.app_id, period: '1w' });
      const other = await api('POST', '/~/emails/templates', template([]));
      expect(other.status).toBe(201);

      expect(ids(await api('GET', `/~/emails/templates?cohort_id=${cohort.body._id}`))).toEqual([created.body._id]);
      expect(ids(await api('GET', '/~/emails/templates'))).toEqual(expect.arrayContaining([created.body._id, other.body._id]));

      const updated = await api('POST', `/~/emails/templates/${created.body._id}`, {
        state: 2,
        addresses: { from: 'b@example.com', cc: [], bcc: ['x@example.com'] },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ state: 2, name: 'Weekly usage', addresses: { from: 'b@example.com', cc: [], bcc: ['x@example.com'] } });

      expect((await api('DELETE', `/~/emails/templates/${created.body._id}`)).status).toBe(204);
      expect((await api('GET', `/~/emails/templates/${created.body._id}`)).status).toBe(410);
      expect((await api('GET', '/~/emails/templates/0000000000000000dead')).status).toBe(404);
    });

    it('refuses bad input with 400 naming the field', async () => {
      const company = await api('POST', '/~/cohorts', { cohort_name: 'Acme', cohort_type: 'company', criteria: { term: { 'company_id.raw': 'acme' } } });
      const cases: [unknown, string][] = [
        [template([], { addresses: { from: 'not-an-address', cc: [], bcc: [] } }), 'addresses.from'],
        [template([], { addresses: { from: 'a@example.com', cc: ['ok@example.com', 'bad'], bcc: [] } }), 'addresses.cc[1]'],
        [template([], { addresses: { from: 'a@example.com', cc: [] } }), 'addresses.bcc'],
        [template([{ id: '0000000000000000beef', type: 'user' }]), 'cohorts[0].id'],
        [template([{ id: company.body._id, type: 'user' }]), 'cohorts[0].type'],
        [template([{ id: company.body._id, type: 'team' }]), 'cohorts[0].type'],
        [template([], { dynamic_fields: [{ token: 't', field: 'f', aggregator: 'median' }] }), 'dynamic_fields[0].aggregator'],
        [template([], { state: 7 }), 'state'],
        [template([], { period: 'weekly' }), 'period'],
        [template([], { template: { subject: 's', editor: 'e' } }), 'template.design'],
        [template([], { content: { html: '' } }), 'content.chunks'],
        [template([], { sender: 'x' }), 'sender'],
      ];
      for (const [body, field] of cases) {
        const answer = await api('POST', '/~/emails/templates', body);
        expect([answer.status, field]).toEqual([400, field]);
        expect(fieldsOf(answer)).toContain(field);
      }
    });
  });

  describe('keystore', () => {
    it('stores wrapped keys, shows material only by id, one key per type and month', async () => {
      const created = await api('POST', '/~/keystore', { month: '2026-01', encrypted_key: material(1), master_key_id: 'kek-1' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ month: '2026-01', type: 'data_key', master_key_id: 'kek-1' });
      expect(created.body.encrypted_key).toBeUndefined();
      expect(created.body.fingerprint).toMatch(/^[0-9a-f]{16}$/);

      const one = await api('GET', `/~/keystore/${created.body._id}`);
      expect(one.body.encrypted_key).toBe(material(1));

      const batch = await api('POST', '/~/keystore', [
        { month: '2026-02', encrypted_key: material(2) },
        { month: '2026-03', encrypted_key: material(3) },
      ]);
      expect(batch.status).toBe(201);
      expect(batch.body).toHaveLength(2);

      const listed = await api('GET', '/~/keystore');
      expect(listed.body.map((k: any) => k.month)).toEqual(['2026-03', '2026-02', '2026-01']);
      expect(listed.body.every((k: any) => k.encrypted_key === undefined)).toBe(true);
      expect((await api('GET', '/~/keystore?from=2026-02-01T00:00:00Z&to=2026-02')).body.map((k: any) => k.month)).toEqual(['2026-02']);
      expect((await api('GET', '/~/keystore?type=other')).body).toEqual([]);
      expect(fieldsOf(await api('GET', '/~/keystore?from=soon'))).toEqual(['from']);

      const duplicate = await api('POST', '/~/keystore', { month: '2026-01', encrypted_key: material(9) });
      expect(duplicate.status).toBe(409);
      expect(fieldsOf(duplicate)).toEqual(['month']);
      const twice = await api('POST', '/~/keystore', [
        { month: '2026-05', encrypted_key: material(5) },
        { month: '2026-05', encrypted_key: material(6) },
      ]);
      expect(fieldsOf(twice)).toEqual(['[1].month']);
      expect((await api('POST', '/~/keystore', { month: '2026-01', type: 'signing', encrypted_key: material(9) })).status).toBe(201);

      const rewrapped = await api('POST', `/~/keystore/${created.body._id}`, { encrypted_key: material(7), master_key_id: 'kek-2' });
      expect(rewrapped.status).toBe(200);
      expect(rewrapped.body.encrypted_key).toBeUndefined();
      expect(rewrapped.body.fingerprint).not.toBe(created.body.fingerprint);
      expect((await api('GET', `/~/keystore/${created.body._id}`)).body).toMatchObject({ encrypted_key: material(7), master_key_id: 'kek-2' });
      expect(fieldsOf(await api('POST', `/~/keystore/${created.body._id}`, { month: '2026-04' }))).toEqual(['month']);

      expect((await api('DELETE', `/~/keystore/${created.body._id}`)).status).toBe(204);
      expect((await api('GET', `/~/keystore/${created.body._id}`)).status).toBe(410);
      expect((await api('GET', '/~/keystore/0000000000000000dead')).status).toBe(404);
    });

    it('refuses bad keys with 400 naming the field', async () => {
      const cases: [unknown, string][] = [
        [{ month: '2026-13', encrypted_key: material(1) }, 'month'],
        [{ month: '2026-06', encrypted_key: 'not base64!' }, 'encrypted_key'],
        [{ month: '2026-06', encrypted_key: 'c2hvcnQ=' }, 'encrypted_key'],
        [{ month: '2026-06' }, 'encrypted_key'],
        [{ month: '2026-06', encrypted_key: material(1), plaintext_key: 'x' }, 'plaintext_key'],
        [{ month: '2026-06', encrypted_key: material(1), type: 'Bad Type' }, 'type'],
      ];
      for (const [body, field] of cases) {
        const answer = await api('POST', '/~/keystore', body);
        expect([answer.status, field]).toEqual([400, field]);
        expect(fieldsOf(answer)).toContain(field);
      }
      expect((await api('POST', '/~/keystore', [])).status).toBe(400);
    });
  });

  describe('documents DynamoDB cannot store', () => {
    it('are refused with 400 naming the member, never 500', async () => {
      let deep: Record<string, unknown> = { leaf: 1 };
      for (let i = 0; i < 40; i += 1) deep = { d: deep };
      const cases: [string, unknown, string][] = [
        ['/~/dashboards', { name: 'x', sort_order: 2 ** 53 }, 'sort_order'],
        ['/~/dashboards', { name: 'x', sort_order: -5e-324 }, 'sort_order'],
        ['/~/dashboards', { name: 'x', policy: { acl: [], resource: { big: 1e300 } } }, 'policy.resource.big'],
        ['/~/workspaces', workspaceBody({ colors: deep }), 'colors'],
        ['/~/workspaces', workspaceBody({ width: 1e-200 }), 'width'],
        ['/~/workspaces', workspaceBody({ colors: { ok: { '': 1 } } }), 'colors.ok'],
        [
          '/~/emails/templates',
          {
            name: 'Big',
            state: 0,
            addresses: { from: 'a@example.com', cc: [], bcc: [] },
            cohorts: [],
            template: { subject: 's', editor: 'e', design: { blob: 'x'.repeat(400_000) } },
            content: { html: '', chunks: {} },
          },
          'body',
        ],
      ];
      for (const [path, body, field] of cases) {
        const answer = await api('POST', path, body);
        expect([answer.status, field]).toEqual([400, field]);
        expect(fieldsOf(answer)[0]).toMatch(new RegExp(`^${field.replace(/[.[\]]/g, '\\$&')}`));
      }
      // Odd but storable members are kept as sent.
      const odd = await api('POST', '/~/workspaces', workspaceBody({ colors: { ' ': 1, 'a.b': [null, -0.5, 'x', 2 ** 53 - 1, 1e-130] } }));
      expect(odd.status).toBe(201);
      expect((await api('GET', `/~/workspaces/${odd.body._id}`)).body.colors).toEqual({ ' ': 1, 'a.b': [null, -0.5, 'x', 2 ** 53 - 1, 1e-130] });
    });
  });

  describe('tenancy and scopes', () => {
    it('nothing of one org is visible or changeable from another', async () => {
      const ws = await createWorkspace({ name: 'Private' });
      const dash = await createDashboard({ name: 'Private', workspace_ids: [[ws._id]] });
      const key = await api('POST', '/~/keystore', { month: '2030-01', encrypted_key: material(4) });

      for (const path of [`/~/dashboards/${dash._id}`, `/~/workspaces/${ws._id}`, `/~/keystore/${key.body._id}`, `/~/workspaces/${ws._id}/comments`]) {
        expect([(await api('GET', path, undefined, otherOrgToken)).status, path]).toEqual([404, path]);
      }
      expect((await api('POST', `/~/dashboards/${dash._id}`, { name: 'mine' }, otherOrgToken)).status).toBe(404);
      expect((await api('DELETE', `/~/dashboards/${dash._id}/cascade`, undefined, otherOrgToken)).status).toBe(404);
      expect((await api('POST', `/~/dashboards/${dash._id}/copy`, undefined, otherOrgToken)).status).toBe(404);
      expect((await api('POST', `/~/workspaces/${ws._id}/comments`, { message: 'hi' }, otherOrgToken)).status).toBe(404);
      expect((await api('GET', '/~/dashboards', undefined, otherOrgToken)).body).toEqual([]);
      expect((await api('GET', '/~/keystore', undefined, otherOrgToken)).body).toEqual([]);
      // Another org's ids cannot be referenced either.
      const theirs = await api('POST', '/~/dashboards', { name: 'Borrow', workspace_ids: [[ws._id]] }, otherOrgToken);
      expect(fieldsOf(theirs)).toEqual(['workspace_ids[0][0]']);
      expect((await api('GET', `/~/dashboards/${dash._id}`)).body.name).toBe('Private');
    });

    it('each route needs its scope', async () => {
      const reader = await tokenFor('reader', rt.credentials.org_id, rt.credentials.app_id, ['read:dashboards', 'read:workspaces', 'read:encrypted_keys']);
      expect((await api('GET', '/~/dashboards', undefined, reader)).status).toBe(200);
      expect((await api('POST', '/~/dashboards', { name: 'x' }, reader)).status).toBe(401);
      expect((await api('POST', '/~/workspaces', workspaceBody(), reader)).status).toBe(401);
      expect((await api('POST', '/~/keystore', { month: '2031-01', encrypted_key: material(1) }, reader)).status).toBe(401);
      expect((await api('GET', '/~/emails/templates', undefined, reader)).status).toBe(401);
      expect((await api('PATCH', '/~/dashboards')).status).toBe(405);
    });
  });
});
