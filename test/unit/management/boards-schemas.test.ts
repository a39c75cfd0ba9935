import { ValidationError } from '../../../functions/shared/errors';
import { DashboardCreate, DashboardUpdate, MAX_DASHBOARD_WORKSPACES } from '../../../schemas/resources/dashboard';
import { EmailTemplateCreate, EmailTemplateUpdate } from '../../../schemas/resources/email-template';
import { EncryptedKeyCreate, EncryptedKeyCreateList } from '../../../schemas/resources/keystore';
import { PolicyItem, withGrant } from '../../../schemas/resources/policy';
import { CommentCreate, WorkspaceCreate, WorkspaceUpdate } from '../../../schemas/resources/workspace';
import { parseBody } from '../../../functions/shared/invalid-input';

const fieldsOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.details.map((d) => d.field);
    throw error;
  }
  throw new Error('expected a ValidationError');
};

const policy = { acl: [{ grantee: 'a', permission: 'read' }], resource: {} };

describe('dashboard schemas', () => {
  it('create: name required, lists default to empty, unknown fields named', () => {
    expect(parseBody(DashboardCreate, { name: 'D' })).toEqual({ name: 'D', dashboard_ids: [], workspace_ids: [] });
    expect(fieldsOf(() => parseBody(DashboardCreate, {}))).toEqual(['name']);
    expect(fieldsOf(() => parseBody(DashboardCreate, { name: 'D', colour: 1, size: 2 }))).toEqual(['colour', 'size']);
    expect(fieldsOf(() => parseBody(DashboardCreate, { name: 'D', workspace_ids: [['a', 7]] }))).toEqual(['workspace_ids[0][1]']);
  });

  it('caps the workspaces a layout names (each is checked to exist)', () => {
    const rows = (n: number) => [Array.from({ length: n }, (_, i) => `w${i}`)];
    expect(parseBody(DashboardCreate, { name: 'D', workspace_ids: rows(MAX_DASHBOARD_WORKSPACES) }).workspace_ids[0]).toHaveLength(MAX_DASHBOARD_WORKSPACES);
    expect(fieldsOf(() => parseBody(DashboardCreate, { name: 'D', workspace_ids: rows(MAX_DASHBOARD_WORKSPACES + 1) }))).toEqual(['workspace_ids']);
  });

  it('update: every field optional, dashboard_id accepted, stored-only fields refused', () => {
    expect(parseBody(DashboardUpdate, {})).toEqual({});
    expect(parseBody(DashboardUpdate, { dashboard_id: 'x', sort_order: 1.5 })).toEqual({ dashboard_id: 'x', sort_order: 1.5 });
    expect(fieldsOf(() => parseBody(DashboardUpdate, { auth_user_id: 'me' }))).toEqual(['auth_user_id']);
  });
});

describe('policy', () => {
  it('needs acl and resource; a grantee appears once', () => {
    expect(parseBody(PolicyItem, policy)).toEqual(policy);
    expect(fieldsOf(() => parseBody(PolicyItem, { acl: [] }))).toEqual(['resource']);
    expect(fieldsOf(() => parseBody(PolicyItem, { acl: [...policy.acl, { grantee: 'a', permission: 'edit' }], resource: {} }))).toEqual(['acl']);
  });

  it('withGrant adds a grantee or replaces its permission, and starts a policy when there is none', () => {
    expect(withGrant(undefined, { grantee: 'x', permission: 'read' })).toEqual({ acl: [{ grantee: 'x', permission: 'read' }], resource: {} });
    const twice = withGrant(withGrant(policy, { grantee: 'b', permission: 'read' }), { grantee: 'a', permission: 'admin' });
    expect(twice.acl).toEqual([
      { grantee: 'b', permission: 'read' },
      { grantee: 'a', permission: 'admin' },
    ]);
  });
});

describe('workspace schemas', () => {
  const chart = { view: 'v', url_query: 'q' };

  it('create requires name, policy and chart (chart: view and url_query)', () => {
    expect(fieldsOf(() => parseBody(WorkspaceCreate, {})).sort()).toEqual(['chart', 'name', 'policy']);
    expect(fieldsOf(() => parseBody(WorkspaceCreate, { name: 'W', policy, chart: {} })).sort()).toEqual(['chart.url_query', 'chart.view']);
    expect(parseBody(WorkspaceCreate, { name: 'W', policy, chart, view_count: 3 })).toMatchObject({ view_count: 3 });
  });

  it('update refuses fields outside WorkspaceUpdateItem', () => {
    expect(fieldsOf(() => parseBody(WorkspaceUpdate, { is_default: true }))).toEqual(['is_default']);
    expect(fieldsOf(() => parseBody(WorkspaceUpdate, { drawings: [{ id: 'd', name: 'n', type: 't', value: 'high', direction: 'up' }] }))).toEqual([
      'drawings[0].value',
    ]);
  });

  it('a comment needs a message; mentions default to none', () => {
    expect(parseBody(CommentCreate, { message: 'hi' })).toEqual({ message: 'hi', mentions: [] });
    expect(fieldsOf(() => parseBody(CommentCreate, { message: '' }))).toEqual(['message']);
  });
});

describe('email template schemas', () => {
  const valid = {
    name: 'T',
    state: 0,
    addresses: { from: 'a@example.com', cc: [], bcc: [] },
    cohorts: [{ id: 'c1', type: 'company' }],
    template: { subject: 'S', editor: 'html', design: {} },
    content: { html: '<p/>', chunks: {} },
  };

  it('create takes the spec fields; addresses are checked', () => {
    expect(parseBody(EmailTemplateCreate, valid)).toEqual(valid);
    expect(fieldsOf(() => parseBody(EmailTemplateCreate, { ...valid, addresses: { from: 'a@', cc: ['b@example.com', 'nope'], bcc: [] } }))).toEqual([
      'addresses.from',
      'addresses.cc[1]',
    ]);
    expect(fieldsOf(() => parseBody(EmailTemplateCreate, { ...valid, period: '2 weeks' }))).toEqual(['period']);
    expect(fieldsOf(() => parseBody(EmailTemplateCreate, { ...valid, template: { ...valid.template, thumbnail_url: 'not a url' } }))).toEqual([
      'template.thumbnail_url',
    ]);
  });

  it('update: all optional and still strict', () => {
    expect(parseBody(EmailTemplateUpdate, {})).toEqual({});
    expect(fieldsOf(() => parseBody(EmailTemplateUpdate, { subject: 'x' }))).toEqual(['subject']);
    expect(fieldsOf(() => parseBody(EmailTemplateUpdate, { state: -1 }))).toEqual(['state']);
  });
});

describe('keystore schemas', () => {
  const key = Buffer.alloc(32, 7).toString('base64');

  it('a wrapped key is base64 of at least 16 bytes for one month', () => {
    expect(parseBody(EncryptedKeyCreate, { month: '2026-02', encrypted_key: key })).toEqual({ month: '2026-02', encrypted_key: key, type: 'data_key' });
    expect(fieldsOf(() => parseBody(EncryptedKeyCreate, { month: '2026-2', encrypted_key: key }))).toEqual(['month']);
    expect(fieldsOf(() => parseBody(EncryptedKeyCreate, { month: '2026-02', encrypted_key: 'a b' }))).toEqual(['encrypted_key']);
    expect(fieldsOf(() => parseBody(EncryptedKeyCreate, { month: '2026-02', encrypted_key: Buffer.alloc(8).toString('base64') }))).toEqual(['encrypted_key']);
  });

  it('a list names the item of each problem', () => {
    expect(
      fieldsOf(() =>
        parseBody(EncryptedKeyCreateList, [
          { month: '2026-02', encrypted_key: key },
          { month: 'x', encrypted_key: key },
        ]),
      ),
    ).toEqual(['[1].month']);
    expect(fieldsOf(() => parseBody(EncryptedKeyCreateList, []))).toEqual(['body']);
  });
});
