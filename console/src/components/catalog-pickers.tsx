import { useCatalogPlans } from '../lib/catalog';
import { ErrorMessage } from './error-message';

/**
 * Pickers of the catalog's plans and prices, for every form that names one (a subscription's items,
 * a governance rule's plans): chosen from the catalog by name, never typed. A stored id the catalog
 * no longer has stays selectable, marked, so an edit does not drop it silently.
 */

export function PlanSelect({
  name,
  value,
  onChange,
  emptyLabel = '(no plan)',
}: {
  name: string;
  value: string;
  /** The picked plan; a stored id the catalog no longer has comes back without a provider. */
  onChange: (plan: { id: string; provider?: string } | undefined) => void;
  emptyLabel?: string;
}) {
  const plans = useCatalogPlans();
  const catalog = plans.data ?? [];
  return (
    <>
      <select
        name={name}
        value={value}
        onChange={(e) => {
          const plan = catalog.find((p) => p.id === e.target.value);
          onChange(plan ? { id: plan.id, provider: plan.provider } : e.target.value === '' ? undefined : { id: e.target.value });
        }}
      >
        <option value="">{plans.isPending ? 'Loading the catalog…' : emptyLabel}</option>
        {catalog.map((plan) => (
          <option key={plan.id} value={plan.id}>
            {plan.name} ({plan.id})
          </option>
        ))}
        {value && !plans.isPending && !catalog.some((plan) => plan.id === value) && <option value={value}>{value} (not in the catalog)</option>}
      </select>
      {plans.error && <ErrorMessage error={plans.error} />}
    </>
  );
}

/** The prices of the plan picked beside it. */
function usePricesOf(planId: string) {
  const plans = useCatalogPlans();
  return (plans.data ?? []).find((plan) => plan.id === planId)?.prices ?? [];
}

export function PriceSelect({ name, planId, value, onChange }: { name: string; planId: string; value: string; onChange: (priceId: string) => void }) {
  const prices = usePricesOf(planId);
  return (
    <select name={name} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">(any price of the plan)</option>
      {prices.map((price) => (
        <option key={price.id} value={price.id}>
          {price.name} ({price.id})
        </option>
      ))}
      {value && !prices.some((price) => price.id === value) && <option value={value}>{value} (not in the catalog)</option>}
    </select>
  );
}

/** Several prices of a plan (none ticked: any of them). */
export function PriceChecklist({
  label,
  planId,
  selected,
  onChange,
}: {
  label: string;
  planId: string;
  selected: readonly string[];
  onChange: (ids: string[]) => void;
}) {
  const prices = usePricesOf(planId);
  const shown = [
    ...prices.map((price) => ({ id: price.id, name: `${price.name} (${price.id})` })),
    ...selected.filter((id) => !prices.some((p) => p.id === id)).map((id) => ({ id, name: `${id} (not in the catalog)` })),
  ];
  return (
    <fieldset className="checkbox-list">
      <legend>{label}</legend>
      {shown.length === 0 && <span className="muted">{planId ? 'The plan has no prices: any price.' : 'Pick a plan first.'}</span>}
      {shown.map((price) => (
        <label key={price.id}>
          <input
            type="checkbox"
            checked={selected.includes(price.id)}
            onChange={(e) => onChange(e.target.checked ? [...selected, price.id] : selected.filter((id) => id !== price.id))}
          />{' '}
          {price.name}
        </label>
      ))}
    </fieldset>
  );
}
