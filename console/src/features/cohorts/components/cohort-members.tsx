import { Link } from 'react-router';
import { useCohortMembers } from '../api/cohorts';
import { PROFILE_INDEX, type CohortType } from '../utils/criteria';
import { QueryState } from '../../../components/query-state';

/** The live member count of criteria (profile criteria and behaviour), and the first members, each opening its profile. */
export function CohortMembers({ type, criteria, list = true }: { type: CohortType; criteria: Record<string, unknown> | undefined; list?: boolean }) {
  const members = useCohortMembers(type, criteria);
  if (criteria === undefined) return null;
  if (!members.isSuccess) return <QueryState query={members} loading="Counting members…" />;
  const kind = PROFILE_INDEX[type];
  const first = members.data.pages[0];
  const total = first?.total ?? 0;
  const shown = members.data.pages.flatMap((page) => page.members);
  return (
    <div className="cohort-members">
      <p role="status" aria-live="polite">
        <strong>
          {total.toLocaleString()}
          {first?.cut ? '+' : ''}
        </strong>{' '}
        {type === 'user' ? 'user' : 'company'} profile(s) are members now.
      </p>
      {list && shown.length > 0 && (
        <ul className="link-list">
          {shown.map(({ id }) => (
            <li key={id}>
              <Link to={`/${kind}/${encodeURIComponent(id)}`}>{id}</Link>
            </li>
          ))}
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
