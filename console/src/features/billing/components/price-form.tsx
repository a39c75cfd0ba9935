import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { Field } from '../../../components/field';
import { fieldProblem } from '../../../lib/api-error';
import { useCreatePrice, type CatalogPrice, type PriceTier } from '../api/catalog';

type Model = CatalogPrice['pricing_model'];
const MODELS: Record<Model, string> = { per_unit: 'Per unit', package: 'Package', volume: 'Volume tiers', graduated: 'Graduated tiers' };
const tiered = (model: Model) => model === 'volume' || model === 'graduated';

interface TierRow {
  upTo: string;
  unit: string;
  flat: string;
}

/** Adds a price to a plan: per unit, per package, or in volume or graduated tiers, with the API's refusals beside their fields. */
export function PriceForm({ planId }: { planId: string }) {
  const create = useCreatePrice();
  const [name, setName] = useState('');
  const [id, setId] = useState('');
  const [currency, setCurrency] = useState('USD');
  const [model, setModel] = useState<Model>('graduated');
  const [unitPrice, setUnitPrice] = useState('');
  const [divideBy, setDivideBy] = useState('1000');
  const [tiers, setTiers] = useState<TierRow[]>([
    { upTo: '1000', unit: '0.01', flat: '' },
    { upTo: 'inf', unit: '0.005', flat: '' },
  ]);
  const setTier = (i: number, change: Partial<TierRow>) => setTiers((rows) => rows.map((row, j) => (j === i ? { ...row, ...change } : row)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const tierValues: PriceTier[] = tiers.map((row) => ({
      up_to: row.upTo.trim() === 'inf' ? 'inf' : Number(row.upTo),
      ...(row.unit.trim() ? { unit_price_in_decimal: row.unit.trim() } : {}),
      ...(row.flat.trim() ? { flat_price_in_decimal: row.flat.trim() } : {}),
    }));
    create.mutate(
      {
        name: name.trim(),
        ...(id.trim() ? { id: id.trim() } : {}),
        plan_id: planId,
        currency: currency.trim(),
        pricing_model: model,
        ...(tiered(model) ? { tiers: tierValues } : { price_in_decimal: unitPrice.trim() }),
        ...(model === 'package' ? { transform_quantity: { divide_by: Number(divideBy), round: 'up' as const } } : {}),
      },
      {
        onSuccess: () => {
          setName('');
          setId('');
        },
      },
    );
  };
  const problem = (field: string) => fieldProblem(create.error, field);
  return (
    <form className="meter-editor" onSubmit={submit} aria-label="New price" noValidate>
      <div className="inline-form">
        <Field label="Price name" problem={problem('name')}>
          <input name="price_name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Price id (optional)" problem={problem('id')} hint="Your provider's price id; generated when empty">
          <input name="price_id" data-chosen-id value={id} onChange={(e) => setId(e.target.value)} maxLength={128} />
        </Field>
        <Field label="Currency" problem={problem('currency')}>
          <input name="currency" value={currency} onChange={(e) => setCurrency(e.target.value)} size={4} />
        </Field>
        <Field label="Pricing model" problem={problem('pricing_model')}>
          <select name="pricing_model" value={model} onChange={(e) => setModel(e.target.value as Model)}>
            {Object.entries(MODELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      {tiered(model) ? (
        <fieldset className="webhook-params">
          <legend>
            Tiers (the last one up to <code>inf</code>)
          </legend>
          <table className="event-table" aria-label="Tiers">
            <thead>
              <tr>
                <th scope="col">Up to (units)</th>
                <th scope="col">Unit price</th>
                <th scope="col">Flat price</th>
                <th scope="col">
                  <span className="visually-hidden">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tiers.map((row, i) => (
                <tr key={i}>
                  <td>
                    <input aria-label={`Tier ${i + 1} up to`} name="up_to" value={row.upTo} onChange={(e) => setTier(i, { upTo: e.target.value })} size={8} />
                  </td>
                  <td>
                    <input
                      aria-label={`Tier ${i + 1} unit price`}
                      name="unit_price"
                      value={row.unit}
                      onChange={(e) => setTier(i, { unit: e.target.value })}
                      size={8}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={`Tier ${i + 1} flat price`}
                      name="flat_price"
                      value={row.flat}
                      onChange={(e) => setTier(i, { flat: e.target.value })}
                      size={8}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => setTiers((rows) => rows.filter((_, j) => j !== i))}
                      disabled={tiers.length === 1}
                    >
                      Remove
                    </button>
                  </td>
                  {problem(`tiers[${i}]`) && (
                    <td className="field-problem" role="alert">
                      Tier {i + 1}, {problem(`tiers[${i}]`)}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" className="secondary" onClick={() => setTiers((rows) => [...rows, { upTo: '', unit: '', flat: '' }])}>
            Add a tier
          </button>
          {fieldProblem(create.error, 'tiers') && !tiers.some((_, i) => problem(`tiers[${i}]`)) && (
            <p className="field-problem" role="alert">
              {problem('tiers')}
            </p>
          )}
        </fieldset>
      ) : (
        <div className="inline-form">
          <Field label={model === 'package' ? 'Price per package' : 'Price per unit'} problem={problem('price_in_decimal')}>
            <input name="price_in_decimal" value={unitPrice} onChange={(e) => setUnitPrice(e.target.value)} placeholder="0.0025" />
          </Field>
          {model === 'package' && (
            <Field label="Units per package" problem={problem('transform_quantity')}>
              <input name="divide_by" value={divideBy} onChange={(e) => setDivideBy(e.target.value)} size={8} />
            </Field>
          )}
        </div>
      )}
      <ErrorMessage error={create.error} />
      <button type="submit" disabled={create.isPending}>
        Add price
      </button>
    </form>
  );
}
