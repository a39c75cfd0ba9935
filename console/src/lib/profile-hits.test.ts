import { profileHitOf } from './profile-hits';

describe('profile hits', () => {
  it('keep the stored document and the fields the console shows when they have their type', () => {
    const hit = profileHitOf({
      _id: 'u1',
      sort: ['2026-01-01T00:00:00.000Z'],
      _source: {
        user_id: 'u1',
        company_id: 'acme',
        metadata: { plan: 'pro' },
        campaign: { utm_source: 'news' },
        updated_at: '2026-01-01T00:00:00.000Z',
        ip: '10.0.0.1',
      },
    });
    expect(hit).toEqual({
      _id: 'u1',
      sort: ['2026-01-01T00:00:00.000Z'],
      _source: {
        user_id: 'u1',
        company_id: 'acme',
        metadata: { plan: 'pro' },
        campaign: { utm_source: 'news' },
        created_at: undefined,
        updated_at: '2026-01-01T00:00:00.000Z',
        ip: '10.0.0.1',
      },
    });
  });

  it('leave out a shown field of another type rather than trust it, and read a hit without _source', () => {
    const hit = profileHitOf({ _id: 'c1', _source: { company_id: 42, metadata: ['not', 'an', 'object'], created_at: null } });
    expect(hit._source.company_id).toBeUndefined();
    expect(hit._source.metadata).toBeUndefined();
    expect(hit._source.created_at).toBeUndefined();
    expect(profileHitOf({ _id: 'bare' })).toEqual({
      _id: 'bare',
      _source: { user_id: undefined, company_id: undefined, campaign: undefined, metadata: undefined, created_at: undefined, updated_at: undefined },
    });
  });
});
