import { profileQuery, profileSearchBody } from './profile-query';

describe('customer search', () => {
  it('matches an id exactly or in part, an email or a name, for what someone typed', () => {
    expect(profileQuery('users', ' ada@example.com ')).toEqual({
      bool: {
        should: [
          { term: { 'user_id.raw': 'ada@example.com' } },
          { wildcard: { 'user_id.raw': { value: '*ada@example.com*' } } },
          { term: { 'metadata.email.raw': 'ada@example.com' } },
          { term: { 'metadata.name.raw': 'ada@example.com' } },
        ],
        minimum_should_match: 1,
      },
    });
    expect((profileQuery('companies', 'acme') as { bool: { should: unknown[] } }).bool.should[0]).toEqual({ term: { 'company_id.raw': 'acme' } });
  });

  it('escapes wildcard characters in the text, and passes field:value terms as a query string', () => {
    expect((profileQuery('users', 'a*b?') as { bool: { should: { wildcard?: unknown }[] } }).bool.should[1]).toEqual({
      wildcard: { 'user_id.raw': { value: '*a\\*b\\?*' } },
    });
    expect(profileQuery('users', 'metadata.plan:pro')).toEqual({ query_string: { query: 'metadata.plan:pro' } });
    expect(profileQuery('users', '  ')).toEqual({ match_all: {} });
  });

  it('pages newest change first with search_after', () => {
    expect(profileSearchBody('users', '', ['2026-01-01T00:00:00Z', 'u1'])).toMatchObject({
      size: 25,
      search_after: ['2026-01-01T00:00:00Z', 'u1'],
      sort: [{ updated_at: { order: 'desc' } }, { _id: { order: 'asc' } }],
    });
  });
});
