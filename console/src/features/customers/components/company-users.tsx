import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { exactPhrase } from '../../../lib/query-text';
import { useProfileSearch } from '../api/profiles';
import { QueryState } from '../../../components/query-state';

/** The users of a company (their profiles name it), newest change first, paged. */
export function CompanyUsers({ companyId }: { companyId: string }) {
  const users = useProfileSearch('users', `company_id.raw:${exactPhrase(companyId)}`);
  const hits = users.data?.pages.flatMap((page) => page.hits) ?? [];
  if (!users.isSuccess) return <QueryState query={users} loading="Loading the company's users…" />;
  if (hits.length === 0)
    return (
      <EmptyState title="No users yet">
        <p>
          Users join a company when their profile names its <code>company_id</code>.
        </p>
      </EmptyState>
    );
  return (
    <>
      <ul className="link-list" aria-label="Users of this company">
        {hits.map((hit) => {
          const id = String(hit._source.user_id ?? hit._id);
          return (
            <li key={hit._id}>
              <Link to={`/users/${encodeURIComponent(id)}`}>{id}</Link> <span className="muted">{String(hit._source.metadata?.['email'] ?? '')}</span>
            </li>
          );
        })}
      </ul>
      {users.hasNextPage && (
        <button type="button" onClick={() => void users.fetchNextPage()} disabled={users.isFetchingNextPage}>
          More users
        </button>
      )}
    </>
  );
}
