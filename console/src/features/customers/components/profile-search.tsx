import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { useFormatTime } from '../../../lib/app-time-zone';
import { useProfileSearch } from '../api/profiles';
import { ID_FIELD, type ProfileKind } from '../utils/profile-query';

/** Finds users or companies by id, email, name or any `field:value`, and lists them. */
export function ProfileSearch({ kind, text, onSearch }: { kind: ProfileKind; text: string; onSearch: (kind: ProfileKind, text: string) => void }) {
  const format = useFormatTime();
  const [draft, setDraft] = useState(text);
  const [draftKind, setDraftKind] = useState(kind);
  const search = useProfileSearch(kind, text);
  const hits = search.data?.pages.flatMap((page) => page.hits) ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draftKind, draft);
  };
  const noun = kind === 'users' ? 'user' : 'company';
  return (
    <section aria-label="Customers">
      <form className="filter-bar" onSubmit={submit} aria-label="Find customers">
        <label>
          Find
          <select name="kind" value={draftKind} onChange={(e) => setDraftKind(e.target.value as ProfileKind)}>
            <option value="users">Users</option>
            <option value="companies">Companies</option>
          </select>
        </label>
        <label className="query-bar">
          Id, email, name or field:value{' '}
          <input name="q" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="user-42, ada@example.com, metadata.plan:pro" />
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorMessage error={search.error} />
      {search.isPending ? (
        <Loading label={`Loading ${kind}…`} />
      ) : hits.length === 0 ? (
        <EmptyState title={`No ${kind} found`}>
          <p>
            Profiles come from the SDKs' <code>updateUser</code> / <code>updateCompany</code> calls (<code>POST /v1/{kind}</code>).
          </p>
        </EmptyState>
      ) : (
        <table className="event-table">
          <thead>
            <tr>
              <th scope="col">{kind === 'users' ? 'User' : 'Company'}</th>
              <th scope="col">Email or name</th>
              {kind === 'users' && <th scope="col">Company</th>}
              <th scope="col">Last updated</th>
            </tr>
          </thead>
          <tbody>
            {hits.map((hit) => {
              const id = String(hit._source[ID_FIELD[kind]] ?? hit._id);
              const metadata = hit._source.metadata ?? {};
              return (
                <tr key={hit._id}>
                  <td>
                    <Link to={`/${kind}/${encodeURIComponent(id)}`} aria-label={`Open ${noun} ${id}`}>
                      {id}
                    </Link>
                  </td>
                  <td>{String(metadata['email'] ?? metadata['name'] ?? '')}</td>
                  {kind === 'users' && (
                    <td>
                      {hit._source.company_id ? <Link to={`/companies/${encodeURIComponent(hit._source.company_id)}`}>{hit._source.company_id}</Link> : ''}
                    </td>
                  )}
                  <td>{format(hit._source.updated_at)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {search.hasNextPage && (
        <button type="button" onClick={() => void search.fetchNextPage()} disabled={search.isFetchingNextPage}>
          {search.isFetchingNextPage ? 'Loading more…' : `More ${kind}`}
        </button>
      )}
    </section>
  );
}
