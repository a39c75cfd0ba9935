import { Link } from 'react-router';
import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { useCohortMembers } from '../api/cohorts';
import { PROFILE_INDEX, type CohortType } from '../utils/criteria';

/** The live member count of criteria, and the first members, each opening its profile. */
export function CohortMembers({ type, criteria, list = true }: { type: CohortType; criteria: Record<string, unknown> | undefined; list?: boolean }) {
  const members = useCohortMembers(type, criteria);
  if (criteria === undefined) return null;
  if (members.isPending) return <Loading label="Counting members…" />;
  if (members.error) return <ErrorMessage error={members.error} />;
  const kind = PROFILE_INDEX[type];
  return (
    <div className="cohort-members">
      <p role="status" aria-live="polite"><strong>{members.data.total.toLocaleString()}</strong> {type === 'user' ? 'user' : 'company'} profile(s) match now.</p>
      {list && members.data.members.length > 0 && (
        <ul className="link-list">
          {members.data.members.map((member) => {
            const id = String((type === 'user' ? member._source.user_id : member._source.company_id) ?? member._id);
            return <li key={member._id}><Link to={`/${kind}/${encodeURIComponent(id)}`}>{id}</Link></li>;
          })}
        </ul>
      )}
    </div>
  );
}
