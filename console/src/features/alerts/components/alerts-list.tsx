import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { QueryState } from '../../../components/query-state';
import { useAlertPages } from '../api/alerts';
import { conditionText } from './alert-texts';

/** The app's alert rules: what each watches, its threshold, and whether it is on. */
export function AlertsList() {
  const alerts = useAlertPages();
  const items = alerts.data?.pages.flatMap((page) => page.items) ?? [];
  if (!alerts.isSuccess) return <QueryState query={alerts} loading="Loading alerts…" />;
  if (items.length === 0)
    return (
      <EmptyState title="No alerts">
        <p>
          Alerts watch a metric of your events and tell email, a webhook, Slack or PagerDuty when it crosses a threshold:{' '}
          <Link to="/alerts/new">create one</Link>.
        </p>
      </EmptyState>
    );
  return (
    <>
      <table className="event-table" aria-label="Alerts">
        <thead>
          <tr>
            <th scope="col">Alert</th>
            <th scope="col">Watches</th>
            <th scope="col">Fires when</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {items.map((alert) => (
            <tr key={alert._id}>
              <td>
                <Link to={`/alerts/${encodeURIComponent(alert._id)}`}>{alert.name}</Link>
              </td>
              <td>
                {alert.metric} over {alert.window_minutes} min{alert.group_by ? `, per ${alert.group_by === 'company_id' ? 'company' : 'user'}` : ''}
              </td>
              <td>{conditionText(alert.condition)}</td>
              <td>{alert.state === 1 ? 'enabled' : 'disabled'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {alerts.hasNextPage && (
        <button type="button" onClick={() => void alerts.fetchNextPage()} disabled={alerts.isFetchingNextPage}>
          More alerts
        </button>
      )}
    </>
  );
}
