import { Link } from 'react-router';
import { useCohortMembers } from '../api/cohorts';
import { PROFILE_INDEX, type CohortType } from '../utils/criteria';
import { QueryState } from '../../../components/query-state';

/** The live member count of criteria, and the first members, each opening its profile. */
export function CohortMembers({ type, criteria, list = true }: { type: CohortType; criteria: Record<string, unknown> | undefined; list?: boolean }) {
  const members = useCohortMembers(type, criteria);
  if (criteria === undefined) return null;
  if (!members.isSuccess) return <QueryState query={members} loading="Counting members…" />;
  const kind = PROFILE_INDEX[type];
  const total = members.data.pages[0]?.total ?? 0;
  const shown = members.data.pages.flatMap((page) => page.members);
  return (
    <div className="cohort-members">
      <p role="status" aria-live="polite">
        <strong>{total.toLocaleString()}</strong> {type === 'user' ? 'user' : 'company'} profile(s) match now.
      </p>
      {list && shown.length > 0 && (
        <ul className="link-list">
          {shown.map((member) => {
            const id = String((type === 'user' ? member._source.user_id : member._source.company_id) ?? member._id);
            return (
              <li key={member._id}>
                <Link to={`/${kind}/${encodeURIComponent(id)}`}>{id}</Link>
              </li>
            );
          })}
        </ul>
      )}
      {list && members.hasNextPage && (
        <button type="button" onClick={() => void members.fetchNextPage()} disabled={members.isFetchingNextPage}>
          More members
        </button>
      )}
    </div>
  );
}
