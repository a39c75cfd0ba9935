import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { useMeterPages } from '../api/reports';
import { QueryState } from '../../../components/query-state';

/** The app's billing meters, each leading to its reports. */
export function MetersList() {
  const meters = useMeterPages();
  const items = meters.data?.pages.flatMap((page) => page.items) ?? [];
  if (!meters.isSuccess) return <QueryState query={meters} loading="Loading meters…" />;
  if (items.length === 0) {
    return (
      <EmptyState title="No billing meters">
        <p>
          Click <strong>New meter</strong>: a query over events and the plan it bills. A webhook meter needs a{' '}
          <Link to="/billing/channels">webhook channel</Link> first.
        </p>
      </EmptyState>
    );
  }
  return (
    <>
      <table className="event-table" aria-label="Billing meters">
        <thead>
          <tr>
            <th scope="col">Meter</th>
            <th scope="col">Provider</th>
            <th scope="col">Period</th>
            <th scope="col">Status</th>
            <th scope="col">Reports</th>
          </tr>
        </thead>
        <tbody>
          {items.map((meter) => (
            <tr key={meter._id}>
              <td>
                <Link to={`/billing/meters/${encodeURIComponent(meter._id)}`} aria-label={`Edit ${meter.name}`}>
                  {meter.name}
                </Link>
              </td>
              <td>{meter.billing_plan?.provider_slug ?? ''}</td>
              <td>{meter.reporting_period ?? '1h'}</td>
              <td>{meter.status ?? 'active'}</td>
              <td>
                <Link to={`/billing/reports?meter=${encodeURIComponent(meter._id)}`} aria-label={`Reports of ${meter.name}`}>
                  Reports
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {meters.hasNextPage && (
        <button type="button" onClick={() => void meters.fetchNextPage()} disabled={meters.isFetchingNextPage}>
          More meters
        </button>
      )}
    </>
  );
}
