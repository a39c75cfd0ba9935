import fc from 'fast-check';
import type { SimulatedSubscription } from '../api/simulations';
import { simulationCsv, sortedRows } from './simulation-table';

const row = (subscription_id: string, difference: string, usage = 1): SimulatedSubscription => ({
  subscription_id,
  company_id: `co-${subscription_id}`,
  periods: [{ period_start: '2026-10-01T00:00:00.000Z', period_end: '2026-11-01T00:00:00.000Z', usage, current_amount: '1', simulated_amount: '2' }],
  usage,
  current_amount: '1',
  simulated_amount: '2',
  difference,
});

describe('the simulation table', () => {
  it('sorts amounts as numbers, either way, ties by subscription', () => {
    const rows = [row('a', '10'), row('b', '-2.5'), row('c', '9.99'), row('d', '10')];
    expect(sortedRows(rows, 'difference', true).map((r) => r.subscription_id)).toEqual(['a', 'd', 'c', 'b']);
    expect(sortedRows(rows, 'difference', false).map((r) => r.subscription_id)).toEqual(['b', 'c', 'a', 'd']);
  });

  it('keeps every row whatever the column and direction', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 0, maxLength: 20 }),
        fc.constantFrom('subscription_id', 'company_id', 'usage', 'current_amount', 'simulated_amount', 'difference' as const),
        fc.boolean(),
        (ids, column, descending) => {
          const rows = ids.map((id, n) => row(id, String(n - 5), n));
          expect(
            sortedRows(rows, column, descending)
              .map((r) => r.subscription_id)
              .sort(),
          ).toEqual([...ids].sort());
        },
      ),
    );
  });

  it('exports one line per subscription and period, with the currency', () => {
    expect(simulationCsv([row('sub,1', '1', 3)], 'usd').split('\r\n')).toEqual([
      'subscription_id,company_id,period_start,period_end,usage,currency,current_amount,simulated_amount',
      '"sub,1","co-sub,1",2026-10-01T00:00:00.000Z,2026-11-01T00:00:00.000Z,3,usd,1,2',
      '',
    ]);
  });
});
