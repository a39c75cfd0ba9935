import { useState, type FormEvent } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { Field } from '../../../components/field';
import { Loading } from '../../../components/loading';
import { fieldProblem } from '../../../lib/api-error';
import { useCreatePlan, usePlans, type CatalogPrice } from '../api/catalog';
import { PriceForm } from './price-form';

/** How a price charges, in words: its model and its tiers. */
export function priceSummary(price: CatalogPrice): string {
  const currency = price.currency.toUpperCase();
  if (price.tiers && price.tiers.length > 0) {
    const tiers = price.tiers.map(
      (tier) => `up to ${tier.up_to}: ${tier.unit_price_in_decimal ?? '0'}/unit${tier.flat_price_in_decimal ? ` + ${tier.flat_price_in_decimal} flat` : ''}`,
    );
    return `${price.pricing_model} tiers in ${currency}: ${tiers.join('; ')}`;
  }
  if (price.pricing_model === 'package') return `${price.price_in_decimal ?? '?'} ${currency} per ${price.transform_quantity?.divide_by ?? '?'} units`;
  return `${price.price_in_decimal ?? '?'} ${currency} per unit`;
}

/** The catalog: plans with their prices, a form to start a plan, and one to add a price (tiers included) to each. */
export function PlansCatalog() {
  const plans = usePlans();
  const create = useCreatePlan();
  const [name, setName] = useState('');
  const [id, setId] = useState('');
  const [adding, setAdding] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), ...(id.trim() ? { id: id.trim() } : {}) },
      {
        onSuccess: () => {
          setName('');
          setId('');
        },
      },
    );
  };
  return (
    <section aria-label="Catalog">
      <form className="inline-form" onSubmit={submit} aria-label="New plan" noValidate>
        <Field label="Plan name" problem={fieldProblem(create.error, 'name')}>
          <input name="plan_name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </Field>
        <Field label="Plan id (optional)" problem={fieldProblem(create.error, 'id')} hint="Your provider's id, or a word such as starter; generated when empty">
          <input name="plan_id" data-chosen-id value={id} onChange={(e) => setId(e.target.value)} maxLength={128} pattern="[A-Za-z0-9_\-]+" />
        </Field>
        <button type="submit" disabled={create.isPending}>
          Create plan
        </button>
        <ErrorMessage error={create.error} />
      </form>
      {plans.isPending ? (
        <Loading label="Loading the catalog…" />
      ) : plans.error ? (
        <ErrorMessage error={plans.error} />
      ) : plans.data.length === 0 ? (
        <EmptyState title="No plans yet">
          <p>A plan groups the prices a webhook meter's usage is charged at.</p>
        </EmptyState>
      ) : (
        plans.data.map((plan) => (
          <section key={plan.id} className="tile" aria-label={`Plan ${plan.name}`}>
            <h2>
              {plan.name} <span className="muted">({plan.id})</span>
              {plan.synced_from ? <span className="badge"> synced from {providerTitle(plan.synced_from.provider)}</span> : null}
            </h2>
            {(plan.prices ?? []).length === 0 ? (
              <p className="muted">No prices yet.</p>
            ) : (
              <ul className="link-list" aria-label={`Prices of ${plan.name}`}>
                {(plan.prices ?? []).map((price) => (
                  <li key={price.id}>
                    <strong>{price.name}</strong>: {priceSummary(price)}
                  </li>
                ))}
              </ul>
            )}
            {plan.synced_from ? (
              <p className="muted">Its prices are changed in {providerTitle(plan.synced_from.provider)}; the next sync brings them here.</p>
            ) : adding === plan.id ? (
              <PriceForm planId={plan.id} />
            ) : (
              <button type="button" className="secondary" onClick={() => setAdding(plan.id)}>
                Add a price to {plan.name}
              </button>
            )}
          </section>
        ))
      )}
    </section>
  );
}

const providerTitle = (provider: string) => ({ stripe: 'Stripe', chargebee: 'Chargebee', recurly: 'Recurly', zuora: 'Zuora' })[provider] ?? provider;
