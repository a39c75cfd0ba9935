import { csvText } from '../../../lib/csv';
import type { SimulatedSubscription } from '../api/simulations';

/** The columns a simulation's table sorts by, and how each compares. */
export type SimulationColumn = 'subscription_id' | 'company_id' | 'usage' | 'current_amount' | 'simulated_amount' | 'difference';

const NUMERIC: ReadonlySet<SimulationColumn> = new Set(['usage', 'current_amount', 'simulated_amount', 'difference']);

/** The rows sorted by one column, ascending or descending (amounts as numbers, ids as text); ties by subscription id. */
export function sortedRows(rows: readonly SimulatedSubscription[], column: SimulationColumn, descending: boolean): SimulatedSubscription[] {
  const value = (row: SimulatedSubscription) => row[column];
  const compare = (a: SimulatedSubscription, b: SimulatedSubscription) => {
    const order = NUMERIC.has(column) ? Number(value(a)) - Number(value(b)) : String(value(a)).localeCompare(String(value(b)));
    return (descending ? -order : order) || a.subscription_id.localeCompare(b.subscription_id);
  };
  return [...rows].sort(compare);
}

/** The simulation as CSV: one line per subscription and period. */
export function simulationCsv(rows: readonly SimulatedSubscription[], currency: string): string {
  const header = ['subscription_id', 'company_id', 'period_start', 'period_end', 'usage', 'currency', 'current_amount', 'simulated_amount'];
  const lines = rows.flatMap((row) =>
    row.periods.map((period) => [
      row.subscription_id,
      row.company_id,
      period.period_start,
      period.period_end,
      String(period.usage),
      currency,
      period.current_amount,
      period.simulated_amount,
    ]),
  );
  return csvText([header, ...lines]);
}
