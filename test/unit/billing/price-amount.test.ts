import { PriceInput } from '../../../schemas/billing/catalog';
import { priceAmount } from '../../../functions/billing/pricing/price-amount';
import { reportedQuantity } from '../../../functions/billing/pricing/usage-quantity';

const price = (fields: Record<string, unknown>) => PriceInput.parse({ name: 'API calls', plan_id: 'plan_1', currency: 'USD', ...fields });

describe('priceAmount', () => {
  it('per_unit: quantity × price, exact, then rounded to cents', () => {
    const result = priceAmount(price({ pricing_model: 'per_unit', price_in_decimal: '0.0025' }), 1234n);
    expect(result.exact_amount.toString()).toBe('3.085');
    expect(result.amount.toString()).toBe('3.09');
    expect(result.currency).toBe('usd');
  });

  it('per_unit with transform_quantity bills per started (up) or completed (down) batch', () => {
    const up = price({ pricing_model: 'per_unit', price_in_decimal: '1.50', transform_quantity: { divide_by: 1000, round: 'up' } });
    const down = price({ pricing_model: 'per_unit', price_in_decimal: '1.50', transform_quantity: { divide_by: 1000, round: 'down' } });
    expect(priceAmount(up, 2001n)).toMatchObject({ billable_quantity: 3n });
    expect(priceAmount(up, 2001n).amount.toString()).toBe('4.5');
    expect(priceAmount(down, 2001n).amount.toString()).toBe('3');
    expect(priceAmount(up, 0n).amount.toString()).toBe('0');
  });

  it('package: packages of divide_by units', () => {
    const p = price({ pricing_model: 'package', price_in_decimal: '5', transform_quantity: { divide_by: 100, round: 'up' } });
    expect(priceAmount(p, 100n).amount.toString()).toBe('5');
    expect(priceAmount(p, 101n).amount.toString()).toBe('10');
  });

  const tiers = [
    { up_to: 1000, unit_price_in_decimal: '0.01' },
    { up_to: 10000, unit_price_in_decimal: '0.008', flat_price_in_decimal: '2' },
    { up_to: 'inf', unit_price_in_decimal: '0.005', flat_price_in_decimal: '10' },
  ];

  it('volume: the whole quantity at the price of the tier it falls in', () => {
    const p = price({ pricing_model: 'volume', tiers });
    expect(priceAmount(p, 1000n).amount.toString()).toBe('10');
    expect(priceAmount(p, 1001n).amount.toString()).toBe('10.01'); // 1001 × 0.008 + 2 = 10.008
    expect(priceAmount(p, 1001n).exact_amount.toString()).toBe('10.008');
    expect(priceAmount(p, 20000n).amount.toString()).toBe('110');
  });

  it('graduated: each tier its own units, flat prices of reached tiers only', () => {
    const p = price({ pricing_model: 'graduated', tiers });
    // 1000 × 0.01 = 10
    expect(priceAmount(p, 1000n).amount.toString()).toBe('10');
    // 10 + (500 × 0.008 + 2) = 16
    const mid = priceAmount(p, 1500n);
    expect(mid.amount.toString()).toBe('16');
    expect(mid.lines.map((l) => [l.tier, l.units])).toEqual([
      [0, 1000n],
      [1, 500n],
    ]);
    // 10 + (9000 × 0.008 + 2) + (5000 × 0.005 + 10) = 10 + 74 + 35 = 119
    expect(priceAmount(p, 15000n).amount.toString()).toBe('119');
    expect(priceAmount(p, 0n).amount.toString()).toBe('0');
  });

  it("accepts other systems' names for the models", () => {
    expect(price({ pricing_model: 'tiered', tiers }).pricing_model).toBe('graduated');
    expect(price({ pricing_model: 'tiered_volume', tiers }).pricing_model).toBe('volume');
    expect(price({ pricing_model: 'standard', price_in_decimal: '1' }).pricing_model).toBe('per_unit');
  });

  it.each([
    [{ pricing_model: 'volume' }, 'tiers'],
    [{ pricing_model: 'volume', tiers: [{ up_to: 10, unit_price_in_decimal: '1' }] }, 'tiers.0.up_to'],
    [
      {
        pricing_model: 'graduated',
        tiers: [
          { up_to: 10, unit_price_in_decimal: '1' },
          { up_to: 5, unit_price_in_decimal: '1' },
          { up_to: 'inf', unit_price_in_decimal: '1' },
        ],
      },
      'tiers.1.up_to',
    ],
    [{ pricing_model: 'per_unit' }, 'price_in_decimal'],
    [{ pricing_model: 'per_unit', price_in_decimal: '-1' }, 'price_in_decimal'],
    [{ pricing_model: 'per_unit', price_in_decimal: 0.5 }, 'price_in_decimal'],
    [{ pricing_model: 'package', price_in_decimal: '1' }, 'transform_quantity'],
    [{ pricing_model: 'per_unit', price_in_decimal: '1', currency: 'dollars' }, 'currency'],
  ])('refuses an incomplete or inconsistent price %#', (fields, path) => {
    const parsed = PriceInput.safeParse({ name: 'n', plan_id: 'p', currency: 'USD', ...fields });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join('.'))).toContain(path);
  });
});

describe('reportedQuantity', () => {
  it('applies the multiplier exactly, then rounds once', () => {
    expect(reportedQuantity('1234', { usage_multiplier: 0.001, usage_rounding_mode: 'up' })).toBe(2n);
    expect(reportedQuantity('1234', { usage_multiplier: 0.001, usage_rounding_mode: 'down' })).toBe(1n);
    expect(reportedQuantity('1500', { usage_multiplier: 0.001 })).toBe(2n);
    expect(reportedQuantity('10.5')).toBe(11n);
    expect(reportedQuantity('3', { usage_multiplier: 0.1 })).toBe(0n);
  });
});
