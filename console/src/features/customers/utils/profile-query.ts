/** Users and companies: which index, which id field, and the search a typed text becomes. */
export type ProfileKind = 'users' | 'companies';

export const ID_FIELD: Record<ProfileKind, string> = { users: 'user_id', companies: 'company_id' };

/**
 * The search for what someone typed: `field:value` terms as a query string; otherwise the id
 * (exactly, or containing the text) or an email or name equal to it.
 */
export function profileQuery(kind: ProfileKind, text: string): Record<string, unknown> {
  const typed = text.trim();
  if (typed === '') return { match_all: {} };
  if (/^[\w.]+:/.test(typed)) return { query_string: { query: typed } };
  const id = `${ID_FIELD[kind]}.raw`;
  return {
    bool: {
      should: [
        { term: { [id]: typed } },
        { wildcard: { [id]: { value: `*${typed.replace(/[*?\\]/g, '\\$&')}*` } } },
        { term: { 'metadata.email.raw': typed } },
        { term: { 'metadata.name.raw': typed } },
      ],
      minimum_should_match: 1,
    },
  };
}

export const PROFILE_PAGE_SIZE = 25;

/** Newest profiles first; the id breaks ties so search_after pages without gaps. */
export function profileSearchBody(kind: ProfileKind, text: string, after?: readonly unknown[]): Record<string, unknown> {
  return {
    query: profileQuery(kind, text),
    sort: [{ updated_at: { order: 'desc' } }, { _id: { order: 'asc' } }],
    size: PROFILE_PAGE_SIZE,
    ...(after ? { search_after: after } : {}),
  };
}
