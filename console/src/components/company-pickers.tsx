import { useId } from 'react';
import { useCompanyIdSuggestions, useCompanySubscriptions } from '../lib/company-choices';

/** A company id with the app's companies suggested as you type (a datalist: any id may still be typed in full). */
export function CompanyIdInput({ name, value, onChange, required }: { name: string; value: string; onChange: (id: string) => void; required?: boolean }) {
  const list = useId();
  const suggestions = useCompanyIdSuggestions(value);
  return (
    <>
      <input name={name} value={value} list={list} autoComplete="off" required={required} onChange={(e) => onChange(e.target.value)} />
      <datalist id={list}>
        {(suggestions.data ?? []).map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
    </>
  );
}

/** One of a company's subscriptions, by id, status and plan. */
export function SubscriptionSelect({ name, companyId, value, onChange }: { name: string; companyId: string; value: string; onChange: (id: string) => void }) {
  const subscriptions = useCompanySubscriptions(companyId);
  const found = subscriptions.data ?? [];
  return (
    <select name={name} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">
        {subscriptions.isPending ? 'Loading subscriptions…' : found.length === 0 ? '(the company has no subscription)' : '(pick a subscription)'}
      </option>
      {found.map((subscription) => (
        <option key={subscription.subscription_id} value={subscription.subscription_id}>
          {subscription.subscription_id} ({[subscription.status, ...(subscription.items ?? []).map((item) => item.plan_id)].filter(Boolean).join(', ')})
        </option>
      ))}
      {value && !subscriptions.isPending && !found.some((s) => s.subscription_id === value) && <option value={value}>{value}</option>}
    </select>
  );
}
