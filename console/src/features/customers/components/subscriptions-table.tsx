import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { QueryState } from '../../../components/query-state';
import { useFormatTime } from '../../../lib/app-time-zone';
import { useCompanySubscriptions, type Subscription } from '../api/profiles';
import { SubscriptionForm } from './subscription-form';

/** A company's subscriptions (status, period, plan items), each editable, and a form to add one. */
export function SubscriptionsTable({ companyId }: { companyId: string }) {
  const format = useFormatTime();
  const subscriptions = useCompanySubscriptions(companyId);
  // undefined: no form open; null: a new subscription; else the one being edited.
  const [editing, setEditing] = useState<Subscription | null>();
  const close = () => setEditing(undefined);
  if (!subscriptions.isSuccess) return <QueryState query={subscriptions} loading="Loading subscriptions…" />;
  return (
    <>
      {subscriptions.data.length === 0 ? (
        <EmptyState title="No subscriptions">
          <p>
            Add one below, or send them through <code>POST /v1/subscriptions</code> or your billing provider's sync.
          </p>
        </EmptyState>
      ) : (
        <table className="event-table" aria-label="Subscriptions">
          <thead>
            <tr>
              <th scope="col">Subscription</th>
              <th scope="col">Status</th>
              <th scope="col">Current period</th>
              <th scope="col">Plan items</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
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
                    .map((item) => [item.plan_id, item.price_id].filter(Boolean).join(' / '))
                    .filter(Boolean)
                    .join(', ')}
                </td>
                <td>
                  <button type="button" className="secondary" onClick={() => setEditing(subscription)}>
                    Edit {subscription.subscription_id}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing === undefined ? (
        <button type="button" onClick={() => setEditing(null)}>
          Add a subscription
        </button>
      ) : (
        <SubscriptionForm key={editing?.subscription_id ?? 'new'} companyId={companyId} {...(editing ? { editing } : {})} onDone={close} />
      )}
    </>
  );
}
