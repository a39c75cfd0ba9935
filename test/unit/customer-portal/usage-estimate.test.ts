import fc from 'fast-check';
import type { KnownSubscription } from '../../../functions/billing/run/subscription-directory';
import { customerPeriod } from '../../../functions/customer-portal/usage/customer-period';
import { pricedUsage, projectedQuantity } from '../../../functions/customer-portal/usage/usage-pricing';
import type { PriceTerms } from '../../../schemas/billing/catalog';
import type { CatalogPrice } from '../../../functions/billing/run/meter-pricing';
import { runMeterOf } from '../../../functions/billing/run/run-meter';
import { reportedInvoices } from '../../../functions/customer-portal/usage/reported-invoices';

/** The pure parts of a customer's bill estimate: which period, the projection, and the price of a total. */

const HOUR = 3_600_000;
const NOW = new Date('2027-03-15T12:30:00.000Z');
const subscription = (start: string | null, end: string | null): KnownSubscription => ({
  subscriptionId: 's1',
  companyId: 'c1',
  status: 'active',
  periodStart: start ? new Date(start) : null,
  periodEnd: end ? new Date(end) : null,
  items: [],
  createdAt: null,
  metadata: {},
});

describe('the period a usage answer covers', () => {
  it("is the subscription's current period while it holds now, else the UTC month the run bills now's window to", () => {
    expect(customerPeriod(subscription('2027-03-10T00:00:00Z', '2027-04-10T00:00:00Z'), NOW)).toEqual({
      start: new Date('2027-03-10T00:00:00Z'),
      end: new Date('2027-04-10T00:00:00Z'),
      closed: false,
    });
    // Ended and not renewed: new windows go to the UTC month.
    expect(customerPeriod(subscription('2027-02-10T00:00:00Z', '2027-03-10T00:00:00Z'), NOW)).toEqual({
      start: new Date('2027-03-01T00:00:00Z'),
      end: new Date('2027-04-01T00:00:00Z'),
      closed: false,
    });
    expect(customerPeriod(subscription(null, null), NOW)?.start).toEqual(new Date('2027-03-01T00:00:00Z'));
  });

  it("asked by its start: the subscription's stated period (closed once ended), a UTC month, or none", () => {
    const ended = subscription('2027-02-10T00:00:00Z', '2027-03-10T00:00:00Z');
    expect(customerPeriod(ended, NOW, new Date('2027-02-10T00:00:00Z'))).toEqual({
      start: new Date('2027-02-10T00:00:00Z'),
      end: new Date('2027-03-10T00:00:00Z'),
      closed: true,
    });
    expect(customerPeriod(ended, NOW, new Date('2027-01-01T00:00:00Z'))).toEqual({
      start: new Date('2027-01-01T00:00:00Z'),
      end: new Date('2027-02-01T00:00:00Z'),
      closed: true,
    });
    expect(customerPeriod(ended, NOW, new Date('2027-01-15T00:00:00Z'))).toBeUndefined();
  });
});

describe('the projection of a period', () => {
  const period = (startMs: number, lengthMs: number, closed = false) => ({ start: new Date(startMs), end: new Date(startMs + lengthMs), closed });

  it('is the usage rate so far over the whole period, to the nearest unit', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 1, max: 24 * 31 }), fc.integer({ min: 1, max: 1000 }), (total, hours, part) => {
        const length = hours * HOUR;
        const elapsed = Math.max(1, Math.floor((length * part) / 1000));
        const projected = projectedQuantity(total, period(NOW.getTime() - elapsed, length), NOW);
        if (elapsed >= length) return expect(projected).toBe(total);
        // |projected − total × length / elapsed| ≤ ½, and never below the usage so far.
        const twice = projected * 2n * BigInt(elapsed) - total * BigInt(length) * 2n;
        expect(twice <= BigInt(elapsed) && twice > -BigInt(elapsed)).toBe(true);
        expect(projected >= total).toBe(true);
      }),
    );
  });

  it('is the usage itself at the very start of a period', () => {
    expect(projectedQuantity(7n, period(NOW.getTime(), HOUR), NOW)).toBe(7n);
  });
});

describe('the price of a period total', () => {
  const graduated: PriceTerms = {
    pricing_model: 'graduated',
    currency: 'usd',
    tiers: [
      { up_to: 10, unit_price_in_decimal: '0.1' },
      { up_to: 'inf', unit_price_in_decimal: '0.05', flat_price_in_decimal: '1' },
    ],
  } as PriceTerms;
  const volume: PriceTerms = {
    pricing_model: 'volume',
    currency: 'usd',
    tiers: [
      { up_to: 5, unit_price_in_decimal: '0.3' },
      { up_to: 'inf', unit_price_in_decimal: '0.2', flat_price_in_decimal: '2' },
    ],
  } as PriceTerms;

  it('applies the tiers exactly and rounds once, to the cent', () => {
    expect(pricedUsage(graduated, 21n).amount.toString()).toBe('2.55');
    expect(pricedUsage(volume, 5n).amount.toString()).toBe('1.5');
    expect(pricedUsage(volume, 6n).amount.toString()).toBe('3.2');
    expect(pricedUsage(graduated, 21n).lines.map((line) => [line.tier, line.units, line.amount])).toEqual([
      [0, 10, '1'],
      [1, 11, '1.55'],
    ]);
  });

  it('never costs less for more usage on graduated tiers', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.bigInt({ min: 0n, max: 10n ** 6n }), (a, more) => {
        expect(pricedUsage(graduated, a + more).amount.compare(pricedUsage(graduated, a).amount)).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe("a customer's last invoices", () => {
  it('are the periods the run reported: the current total once its period ended, and the earlier ones, priced and newest first', () => {
    const meter = runMeterOf({
      _id: 'm1',
      name: 'calls',
      es_query: '{"query":{"match_all":{}}}',
      billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: ['c'], custom_plan: { plan_id: 'p' } } } },
    });
    if ('error' in meter) throw new Error(meter.error);
    const price = { id: 'price-1', pricing_model: 'per_unit', currency: 'usd', price_in_decimal: '0.1' } as CatalogPrice;
    const billed = new Map([
      [
        'S:s1',
        {
          periodStart: '2027-03-01T00:00:00.000Z',
          periodEnd: '2027-03-15T00:00:00.000Z',
          usage: 7,
          earlier: [{ periodStart: '2027-02-15T00:00:00.000Z', periodEnd: '2027-03-01T00:00:00.000Z', usage: 12, lateCorrections: 2, lateUsage: 3 }],
        },
      ],
    ]);
    const invoices = reportedInvoices(
      [{ meter, pricing: { priceFor: () => price }, billed }],
      [subscription('2027-03-01T00:00:00Z', '2027-03-15T00:00:00Z')],
      NOW,
      // The meter's cursor has passed the earlier period's end, not yet the last one's: in grace.
      new Date('2027-03-14T23:00:00Z'),
    );
    expect(invoices.map((i) => [i.period_start, i.status, i.meters[0]!.usage, i.totals, i.late_corrections, i.meters[0]!.late_usage])).toEqual([
      ['2027-03-01T00:00:00.000Z', 'in_grace', 7, [{ currency: 'usd', amount: '0.7' }], 0, 0],
      ['2027-02-15T00:00:00.000Z', 'final', 12, [{ currency: 'usd', amount: '1.2' }], 2, 3],
    ]);
    // A period still open is not an invoice yet.
    expect(
      reportedInvoices([{ meter, pricing: undefined, billed }], [subscription(null, null)], new Date('2027-03-10T00:00:00Z'), undefined).map(
        (i) => i.period_start,
      ),
    ).toEqual(['2027-02-15T00:00:00.000Z']);
  });
});
