import { amountExplanation } from './amount-explanation';

describe('why a window bills what it bills', () => {
  test('a window that does not move the rounded total says so', () => {
    expect(amountExplanation({ meter_usage: 1, report_total_usage: 3, amount_exact: '0', currency: 'usd' })).toBe(
      "This window took the period's usage from 2 to 3. The period's total is priced and rounded once to the smallest unit of USD; each window bills what that rounded total moved by, which this window did not.",
    );
  });

  test('a window that carries accumulated cents', () => {
    expect(amountExplanation({ meter_usage: 2, report_total_usage: 5, amount_exact: '0.01', currency: 'usd' })).toBe(
      "This window took the period's usage from 3 to 5. The period's total is priced and rounded once to the smallest unit of USD; each window bills what that rounded total moved by.",
    );
  });

  test('no amount, no explanation', () => {
    expect(amountExplanation({ meter_usage: 2, report_total_usage: 5 })).toBeUndefined();
  });
});
