import { useState, type FormEvent } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { CatalogPriceSelect } from './catalog-price-select';
import { useCatalogPlans } from '../../../lib/catalog';
import { useFormatTime } from '../../../lib/app-time-zone';
import { usePreviewPlanChange } from '../api/simulations';

/**
 * "What if this subscription moved to another price now?": each meter's usage this period priced as
 * kept, and as changed now (the usage so far at the current price, the rest of the period at the new
 * one, at the rate so far).
 */
export function PlanChangePreviewPanel({ subscriptionId }: { subscriptionId: string }) {
  const plans = useCatalogPlans();
  const preview = usePreviewPlanChange();
  const format = useFormatTime();
  const [priceId, setPriceId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    preview.mutate({ subscription_id: subscriptionId, price_id: priceId });
  };
  const result = preview.data;
  return (
    <section className="tile" aria-label="Preview a price change">
      <h2>Preview a price change</h2>
      <form onSubmit={submit} aria-label="Price change">
        <p className="muted">
          Each unit is billed at the price in force when it was used: the usage so far at the current price, the rest of the period (at the rate so far) at the
          new one, its tiers counted from the change.
        </p>
        <CatalogPriceSelect label="New price" name="preview_price" plans={plans.data ?? []} value={priceId} onChange={setPriceId} />
        <button type="submit" disabled={!priceId || preview.isPending}>
          {preview.isPending ? 'Previewing…' : 'Preview'}
        </button>
      </form>
      <ErrorMessage error={preview.error ?? plans.error} />
      {result && result.meters.length === 0 ? (
        <EmptyState title="Nothing to reprice">
          <p>{result.left_out.map((meter) => `${meter.billing_meter_id}: ${meter.reason}`).join('; ') || 'No meter bills this subscription this period.'}</p>
        </EmptyState>
      ) : null}
      {result && result.meters.length > 0 ? (
        <>
          <p role="status">
            Changed now ({format(result.changed_at)}), the period to {format(result.period.end)} comes to {result.totals.change_amount}{' '}
            {result.currency.toUpperCase()} instead of {result.totals.keep_amount}: a difference of {result.totals.difference}.
          </p>
          <table aria-label="Price change by meter">
            <thead>
              <tr>
                <th scope="col">Meter</th>
                <th scope="col">Usage so far</th>
                <th scope="col">Estimated for the period</th>
                <th scope="col">Kept</th>
                <th scope="col">Before the change</th>
                <th scope="col">After the change</th>
                <th scope="col">Changed now</th>
                <th scope="col">Difference</th>
              </tr>
            </thead>
            <tbody>
              {result.meters.map((meter) => (
                <tr key={meter.billing_meter_id}>
                  <td>{meter.name}</td>
                  <td>{meter.usage.toLocaleString()}</td>
                  <td>{meter.estimated_usage.toLocaleString()}</td>
                  <td>{meter.keep_amount}</td>
                  <td>{meter.before_change_amount}</td>
                  <td>{meter.after_change_amount}</td>
                  <td>{meter.change_amount}</td>
                  <td>{meter.difference}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}
