import type { CatalogPlan } from '../../../lib/catalog';

/** Every price of the catalog to pick from, named by plan, with its currency and, unless live, its status (drafts are inactive). */
export function CatalogPriceSelect({
  label,
  name,
  plans,
  value,
  onChange,
}: {
  label: string;
  name: string;
  plans: readonly CatalogPlan[];
  value: string;
  onChange: (priceId: string) => void;
}) {
  return (
    <label className="field">
      {label}
      <select name={name} value={value} onChange={(e) => onChange(e.target.value)} required>
        <option value="">Choose a price…</option>
        {plans.flatMap((plan) =>
          (plan.prices ?? []).map((price) => (
            <option key={price.id} value={price.id}>
              {plan.name}: {price.name} ({price.currency.toUpperCase()}
              {price.status === 'active' ? '' : `, ${price.status}`})
            </option>
          )),
        )}
      </select>
    </label>
  );
}
