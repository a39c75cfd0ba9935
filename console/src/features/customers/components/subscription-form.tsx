import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { Field } from '../../../components/field';
import { fieldProblem } from '../../../lib/api-error';
import { PlanSelect, PriceSelect } from '../../../components/catalog-pickers';
import type { Subscription } from '../api/profiles';
import { useSaveSubscription, type SubscriptionStatus } from '../api/subscriptions';
import { subscriptionBody, type ItemRow } from '../utils/subscription-body';

const STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'paused', 'pending', 'future', 'draft', 'cancelled'];

/**
 * Creates a subscription of a company, or edits one: status, current period, and items whose plan
 * and price are picked from the catalog. Saved through the same rules as `POST /v1/subscriptions`;
 * the API's refusals show beside their fields.
 */
export function SubscriptionForm({ companyId, editing, onDone }: { companyId: string; editing?: Subscription; onDone: () => void }) {
  const save = useSaveSubscription(companyId);
  const [id, setId] = useState(editing?.subscription_id ?? '');
  const [status, setStatus] = useState<SubscriptionStatus>((editing?.status as SubscriptionStatus | undefined) ?? 'active');
  const [start, setStart] = useState(editing?.current_period_start?.slice(0, 10) ?? '');
  const [end, setEnd] = useState(editing?.current_period_end?.slice(0, 10) ?? '');
  const [items, setItems] = useState<ItemRow[]>(
    editing?.items?.map((item) => ({ planId: item.plan_id ?? '', priceId: item.price_id ?? '' })) ?? [{ planId: '', priceId: '' }],
  );
  const setItem = (i: number, change: Partial<ItemRow>) => setItems((rows) => rows.map((row, j) => (j === i ? { ...row, ...change } : row)));
  const problem = (field: string) => fieldProblem(save.error, field);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(subscriptionBody({ companyId, id, status, start, end, items }), { onSuccess: onDone });
  };
  return (
    <form className="meter-editor" onSubmit={submit} aria-label={editing ? `Edit subscription ${editing.subscription_id}` : 'New subscription'} noValidate>
      <div className="inline-form">
        <Field label="Subscription id" problem={problem('subscription_id')} hint={editing ? undefined : "Your provider's id; generated when empty"}>
          <input name="subscription_id" data-chosen-id value={id} onChange={(e) => setId(e.target.value)} readOnly={editing !== undefined} />
        </Field>
        <Field label="Status" problem={problem('status')}>
          <select name="status" value={status} onChange={(e) => setStatus(e.target.value as SubscriptionStatus)}>
            {STATUSES.map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </Field>
        <Field label="Period starts (UTC)" problem={problem('current_period_start')}>
          <input type="date" name="current_period_start" value={start} onChange={(e) => setStart(e.target.value)} />
        </Field>
        <Field label="Period ends (UTC)" problem={problem('current_period_end')}>
          <input type="date" name="current_period_end" value={end} onChange={(e) => setEnd(e.target.value)} />
        </Field>
      </div>
      <fieldset className="webhook-params">
        <legend>Items: what the company is subscribed to</legend>
        {items.map((item, i) => (
          <div className="inline-form" key={i}>
            <Field label={`Plan of item ${i + 1}`} problem={problem(`items.${i}.plan_id`)}>
              <PlanSelect name={`plan_${i}`} value={item.planId} onChange={(plan) => setItem(i, { planId: plan?.id ?? '', priceId: '' })} />
            </Field>
            <Field label={`Price of item ${i + 1}`} problem={problem(`items.${i}.price_id`)}>
              <PriceSelect name={`price_${i}`} planId={item.planId} value={item.priceId} onChange={(priceId) => setItem(i, { priceId })} />
            </Field>
            <button type="button" className="secondary" onClick={() => setItems((rows) => rows.filter((_, j) => j !== i))}>
              Remove item {i + 1}
            </button>
          </div>
        ))}
        <button type="button" className="secondary" onClick={() => setItems((rows) => [...rows, { planId: '', priceId: '' }])}>
          Add an item
        </button>
      </fieldset>
      <div className="inline-form">
        <button type="submit" disabled={save.isPending}>
          {editing ? 'Save subscription' : 'Create subscription'}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
      <ErrorMessage error={save.error} />
    </form>
  );
}
