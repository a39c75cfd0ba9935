import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { useCohortPages } from '../api/cohorts';
import { QueryState } from '../../../components/query-state';

/** The app's cohorts, each opening its editor and members. */
export function CohortsList() {
  const cohorts = useCohortPages();
  const items = cohorts.data?.pages.flatMap((page) => page.items) ?? [];
  if (!cohorts.isSuccess) return <QueryState query={cohorts} loading="Loading cohorts…" />;
  if (items.length === 0)
    return (
      <EmptyState title="No cohorts yet">
        <p>A cohort is a saved query over users or companies; governance rules and sampling use them.</p>
      </EmptyState>
    );
  return (
    <>
      <table className="event-table" aria-label="Cohorts">
        <thead>
          <tr>
            <th scope="col">Cohort</th>
            <th scope="col">Of</th>
            <th scope="col">Sample rate</th>
          </tr>
        </thead>
        <tbody>
          {items.map((cohort) => (
            <tr key={cohort._id}>
              <td>
                <Link to={`/cohorts/${encodeURIComponent(cohort._id)}`}>{cohort.cohort_name}</Link>
              </td>
              <td>{cohort.cohort_type === 'user' ? 'Users' : 'Companies'}</td>
              <td>{cohort.sample_rate === undefined ? '' : `${cohort.sample_rate}%`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {cohorts.hasNextPage && (
        <button type="button" onClick={() => void cohorts.fetchNextPage()} disabled={cohorts.isFetchingNextPage}>
          More cohorts
        </button>
      )}
    </>
  );
}
