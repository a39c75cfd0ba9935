import { providerClients } from '../../../functions/billing/run/provider-registry';

describe('billing run: provider connections', () => {
  const document = {
    connections: [
      { provider: 'stripe', api_key: 'sk_shared' },
      { provider: 'recurly', api_key: 'rk_shared' },
    ],
    apps: { 'org1/app1': [{ provider: 'stripe', api_key: 'sk_app1' }] },
  };

  it('serves the shared connections, lets an app override them, and reuses clients', () => {
    const lookup = providerClients(document);
    const shared = lookup({ orgId: 'org2', appId: 'app9' }, 'stripe');
    expect(shared?.provider).toBe('stripe');
    expect(lookup({ orgId: 'org3', appId: 'appX' }, 'stripe')).toBe(shared);
    const own = lookup({ orgId: 'org1', appId: 'app1' }, 'stripe');
    expect(own?.provider).toBe('stripe');
    expect(own).not.toBe(shared);
    // An app with its own list gets only that list.
    expect(lookup({ orgId: 'org1', appId: 'app1' }, 'recurly')).toBeUndefined();
    expect(lookup({ orgId: 'org2', appId: 'app9' }, 'recurly')?.provider).toBe('recurly');
    expect(lookup({ orgId: 'org2', appId: 'app9' }, 'zuora')).toBeUndefined();
  });

  it('refuses a malformed document naming the problem', () => {
    expect(() => providerClients({ connections: [{ provider: 'stripe' }] })).toThrow(/api_key/);
    expect(() => providerClients({ connection: [] })).toThrow(/connection/);
    expect(lookupNothing()).toBeUndefined();
  });
});

const lookupNothing = () => providerClients({})({ orgId: 'o', appId: 'a' }, 'chargebee');
