import { useState, type FormEvent } from 'react';
import { TotalsChart } from '../../../components/analysis-charts';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { CatalogPriceSelect } from './catalog-price-select';
import { useCatalogPlans } from '../../../lib/catalog';
import { downloadText } from '../../../lib/csv';
import { instantOf } from '../../../lib/time';
import { useSimulatePrice, type PriceSimulation } from '../api/simulations';
import { useCohortChoices } from '../../../lib/cohort-names';
import { simulationCsv, sortedRows, type SimulationColumn } from '../utils/simulation-table';

const COLUMNS: readonly { key: SimulationColumn; title: string }[] = [
  { key: 'subscription_id', title: 'Subscription' },
  { key: 'company_id', title: 'Company' },
  { key: 'usage', title: 'Usage' },
  { key: 'current_amount', title: 'Billed' },
  { key: 'simulated_amount', title: 'Under the price tried' },
  { key: 'difference', title: 'Difference' },
];

/** How many subscriptions the chart of differences shows: the largest differences. */
const CHARTED = 20;

/**
 * "What would they have paid on another price?": the meter's periods that ended in a past range,
 * priced under a catalog price chosen here (drafts included), for every subscription it bills, one
 * company or one plan; a chart of the largest differences, a table sorted by any column, a CSV.
 */
export function PriceSimulationPanel({ meterId }: { meterId: string }) {
  const plans = useCatalogPlans();
  const simulation = useSimulatePrice();
  const cohorts = useCohortChoices();
  const [form, setForm] = useState({ priceId: '', from: instantOf('-3M') ?? '', to: instantOf('now') ?? '', companyId: '', planId: '', cohortId: '' });
  const [sort, setSort] = useState<{ column: SimulationColumn; descending: boolean }>({ column: 'difference', descending: true });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    simulation.mutate({
      billing_meter_id: meterId,
      price_id: form.priceId,
      from: form.from,
      to: form.to,
      ...(form.companyId.trim() ? { company_id: form.companyId.trim() } : {}),
      ...(form.planId ? { plan_id: form.planId } : {}),
      ...(form.cohortId ? { cohort_id: form.cohortId } : {}),
    });
  };
  return (
    <section className="tile" aria-label="Simulate another price">
      <h2>Simulate another price</h2>
      <form onSubmit={submit} aria-label="Simulation">
        <p className="muted">
          The periods that ended in the range, priced as billed and under the price chosen (a draft price need not be live), from the usage the billing run
          reported.
        </p>
        <CatalogPriceSelect
          label="Price to try"
          name="simulation_price"
          plans={plans.data ?? []}
          value={form.priceId}
          onChange={(priceId) => setForm({ ...form, priceId })}
        />
        <label className="field">
          From <input name="simulation_from" value={form.from} onChange={(e) => setForm({ ...form, from: e.target.value })} />
        </label>
        <label className="field">
          To <input name="simulation_to" value={form.to} onChange={(e) => setForm({ ...form, to: e.target.value })} />
        </label>
        <label className="field">
          Only the company{' '}
          <input name="simulation_company" value={form.companyId} onChange={(e) => setForm({ ...form, companyId: e.target.value, planId: '', cohortId: '' })} />
        </label>
        <label className="field">
          Only the subscriptions on plan
          <select name="simulation_plan" value={form.planId} onChange={(e) => setForm({ ...form, planId: e.target.value, companyId: '', cohortId: '' })}>
            <option value="">Every plan</option>
            {(plans.data ?? []).map((plan) => (
              <option key={plan.id} value={plan.id}>
                {plan.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Only the companies of cohort
          <select name="simulation_cohort" value={form.cohortId} onChange={(e) => setForm({ ...form, cohortId: e.target.value, companyId: '', planId: '' })}>
            <option value="">No cohort</option>
            {(cohorts.data ?? []).map((cohort) => (
              <option key={cohort.id} value={cohort.id}>
                {cohort.name} ({cohort.type})
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={!form.priceId || simulation.isPending}>
          {simulation.isPending ? 'Simulating…' : 'Simulate'}
        </button>
      </form>
      <ErrorMessage error={simulation.error ?? plans.error} />
      {simulation.data ? <SimulationResult result={simulation.data} sort={sort} onSort={setSort} /> : null}
    </section>
  );
}

function SimulationResult({
  result,
  sort,
  onSort,
}: {
  result: PriceSimulation;
  sort: { column: SimulationColumn; descending: boolean };
  onSort: (sort: { column: SimulationColumn; descending: boolean }) => void;
}) {
  const currency = result.currency.toUpperCase();
  if (result.subscriptions.length === 0)
    return (
      <EmptyState title="No billed period in the range">
        <p>
          No subscription in scope has a period that ended in the range with usage reported
          {result.other_currency.length > 0 ? `, in ${currency} (${result.other_currency.length} are billed in another currency)` : ''}.
        </p>
      </EmptyState>
    );
  const rows = sortedRows(result.subscriptions, sort.column, sort.descending);
  const charted = sortedRows(result.subscriptions, 'difference', true)
    .sort((a, b) => Math.abs(Number(b.difference)) - Math.abs(Number(a.difference)))
    .slice(0, CHARTED)
    .map((row) => ({ name: row.subscription_id, value: Number(row.difference) }));
  return (
    <>
      <p role="status">
        {result.subscriptions.length.toLocaleString()} subscriptions: billed {result.totals.current_amount} {currency}, under the price tried{' '}
        {result.totals.simulated_amount} {currency}, a difference of {result.totals.difference} {currency}.
        {result.other_currency.length > 0 ? ` ${result.other_currency.length} billed in another currency are left out.` : ''}
      </p>
      <TotalsChart totals={charted} display="bar" label={`Difference per subscription, ${currency}`} />
      <button type="button" className="secondary" onClick={() => downloadText(simulationCsv(rows, result.currency), 'price-simulation.csv')}>
        Download CSV
      </button>
      <table aria-label="Simulated amounts">
        <thead>
          <tr>
            {COLUMNS.map(({ key, title }) => (
              <th key={key} scope="col" aria-sort={sort.column === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
                <button type="button" className="secondary" onClick={() => onSort({ column: key, descending: sort.column === key ? !sort.descending : true })}>
                  {title}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.subscription_id}>
              <td>{row.subscription_id}</td>
              <td>{row.company_id}</td>
              <td>{row.usage.toLocaleString()}</td>
              <td>{row.current_amount}</td>
              <td>{row.simulated_amount}</td>
              <td>{row.difference}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
