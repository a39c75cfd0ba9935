import { Link } from 'react-router';
import { MAX_COHORTS_CHECKED, useProfileCohorts } from '../api/cohorts';
import type { CohortType } from '../utils/criteria';
import { QueryState } from '../../../components/query-state';

/** The cohorts a user or company belongs to now. */
export function ProfileCohorts({ type, profileId }: { type: CohortType; profileId: string }) {
  const cohorts = useProfileCohorts(type, profileId);
  if (!cohorts.isSuccess) return <QueryState query={cohorts} loading="Checking cohorts…" />;
  if (cohorts.data.length === 0) return <p className="muted">In none of the app's cohorts (the first {MAX_COHORTS_CHECKED} are checked).</p>;
  return (
    <ul className="link-list" aria-label="Cohorts of this profile">
      {cohorts.data.map((cohort) => (
        <li key={cohort._id}>
          <Link to={`/cohorts/${encodeURIComponent(cohort._id)}`}>{cohort.cohort_name}</Link>
        </li>
      ))}
    </ul>
  );
}
