import { EmptyState } from '../../../components/empty-state';
import { useFormatTime } from '../../../lib/app-time-zone';
import { useCompanySubscriptions } from '../api/profiles';
import { QueryState } from '../../../components/query-state';

/** A company's subscriptions: status, period and plan items. */
export function SubscriptionsTable({ companyId }: { companyId: string }) {
  const format = useFormatTime();
  const subscriptions = useCompanySubscriptions(companyId);
  if (!subscriptions.isSuccess) return <QueryState query={subscriptions} loading="Loading subscriptions…" />;
  if (subscriptions.data.length === 0) {
    return (
      <EmptyState title="No subscriptions">
        <p>
          Subscriptions arrive through <code>POST /v1/subscriptions</code>.
        </p>
      </EmptyState>
    );
  }
  return (
    <table className="event-table" aria-label="Subscriptions">
      <thead>
        <tr>
          <th scope="col">Subscription</th>
          <th scope="col">Status</th>
          <th scope="col">Current period</th>
          <th scope="col">Plan items</th>
        </tr>
      </thead>
      <tbody>
        {subscriptions.data.map((subscription) => (
          <tr key={subscription.subscription_id}>
            <td>
              <code>{subscription.subscription_id}</code>
            </td>
            <td>{subscription.status ?? ''}</td>
            <td>
              {format(subscription.current_period_start)} – {format(subscription.current_period_end)}
            </td>
            <td>
              {(subscription.items ?? [])
                .map((item) => item.price_id ?? item.plan_id)
                .filter(Boolean)
                .join(', ')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
