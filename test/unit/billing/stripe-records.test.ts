import fc from 'fast-check';
import type Stripe from 'stripe';
import { PriceInput } from '../../../schemas/billing/catalog';
import { companyOfCustomer, mainUnitAmount, planOfProduct, priceOfStripe, subscriptionOfStripe } from '../../../functions/billing/sync/stripe-records';
import { Decimal } from '../../../values/decimal';
import { stripeObjects } from '../../support/fake-providers/fake-stripe-catalog';

const at = new Date('2026-11-01T00:00:00Z');

/** A Stripe price as the fake Stripe lists it, with `fields` replaced. */
const stripePrice = (fields: Partial<Stripe.Price>): Stripe.Price =>
  stripeObjects.price('price_x', 'prod_x', { recurring: null, ...fields } as Record<string, unknown>) as unknown as Stripe.Price;

describe("Stripe's records as the service's", () => {
  it('turns any amount in a currency’s smallest unit into its main unit exactly', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 18n }),
        fc.integer({ min: 0, max: 12 }),
        fc.constantFrom('usd', 'eur', 'jpy', 'kwd'),
        (units, scale, currency) => {
          const minor = Decimal.from(units).dividedBy(10 ** scale, scale, 'nearest');
          const main = mainUnitAmount(minor.toString(), currency);
          const digits = currency === 'jpy' ? 0 : currency === 'kwd' ? 3 : 2;
          expect(
            Decimal.from(main)
              .times(10 ** digits)
              .compare(minor),
          ).toBe(0);
        },
      ),
    );
  });

  it('maps per-unit, package and tiered prices to catalog prices the catalog accepts, amounts in the main unit', () => {
    const tier = fc.record({
      unit: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
      flat: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(tier, { minLength: 1, maxLength: 6 }), fc.constantFrom('graduated', 'volume'), (tiers, mode) => {
        const priced = tiers.map((t) => (t.unit === null && t.flat === null ? { unit: 1, flat: null } : t));
        const price = priceOfStripe(
          stripePrice({
            billing_scheme: 'tiered',
            tiers_mode: mode as Stripe.Price.TiersMode,
            tiers: priced.map((t, n) => ({
              up_to: n === priced.length - 1 ? null : (n + 1) * 100,
              unit_amount: t.unit,
              unit_amount_decimal: t.unit === null ? null : String(t.unit),
              flat_amount: t.flat,
              flat_amount_decimal: t.flat === null ? null : String(t.flat),
            })) as Stripe.Price.Tier[],
          }),
        );
        expect('skipped' in price).toBe(false);
        const parsed = PriceInput.parse(price);
        expect(parsed.pricing_model).toBe(mode);
        expect(parsed.tiers!.at(-1)!.up_to).toBe('inf');
        parsed.tiers!.forEach((t, n) => {
          if (priced[n]!.unit !== null) expect(Decimal.from(t.unit_price_in_decimal!).times(100).toString()).toBe(String(priced[n]!.unit));
        });
      }),
    );
    expect(priceOfStripe(stripePrice({ unit_amount: 100, transform_quantity: { divide_by: 1000, round: 'up' } }))).toMatchObject({
      pricing_model: 'package',
      price_in_decimal: '1',
      transform_quantity: { divide_by: 1000, round: 'up' },
    });
  });

  it('leaves out what the catalog cannot hold, saying why', () => {
    expect(priceOfStripe(stripePrice({}))).toEqual({ skipped: expect.stringContaining('without an amount') });
    expect(priceOfStripe(stripePrice({ billing_scheme: 'tiered', tiers_mode: 'graduated' }))).toEqual({
      skipped: expect.stringContaining('without its tiers'),
    });
    expect(subscriptionOfStripe({ id: 'sub_1', customer: 'cus_1', status: 'active', items: { data: [] } } as unknown as Stripe.Subscription, at)).toEqual({
      skipped: expect.stringContaining('customer'),
    });
  });

  it('marks every record with where it came from, and keeps the customer id beside the company', () => {
    expect(planOfProduct({ id: 'prod_1', name: 'API', active: false, description: null, metadata: {} } as unknown as Stripe.Product)).toMatchObject({
      id: 'prod_1',
      provider: 'stripe',
      status: 'inactive',
    });
    // Names the catalog could not hold are cut, or replaced by the id.
    expect(planOfProduct({ id: 'prod_2', name: 'x'.repeat(250), active: true, metadata: {} } as unknown as Stripe.Product).name).toHaveLength(200);
    expect(planOfProduct({ id: 'prod_3', name: '', active: true, metadata: {} } as unknown as Stripe.Product).name).toBe('prod_3');
    const customer = { id: 'cus_1', metadata: { company_id: 'acme' }, name: 'Acme', email: null } as unknown as Stripe.Customer;
    expect(companyOfCustomer(customer, at)).toEqual({
      company_id: 'acme',
      metadata: { company_id: 'acme', stripe_customer_id: 'cus_1', name: 'Acme' },
      synced_from: { provider: 'stripe', object: 'customer', id: 'cus_1', synced_at: at.toISOString() },
    });
    const item = {
      id: 'si_1',
      created: 1_700_000_000,
      current_period_start: 1_700_000_000,
      current_period_end: 1_702_592_000,
      price: { id: 'price_1', product: 'prod_1' },
    };
    const subscription = {
      id: 'sub_1',
      customer,
      status: 'past_due',
      created: 1_700_000_000,
      metadata: {},
      items: { data: [item] },
    } as unknown as Stripe.Subscription;
    expect(subscriptionOfStripe(subscription, at)).toMatchObject({
      subscription_id: 'sub_1',
      company_id: 'acme',
      // Past due is still billed: Stripe keeps the subscription and retries the payment.
      status: 'active',
      current_period_start: '2023-11-14T22:13:20.000Z',
      current_period_end: '2023-12-14T22:13:20.000Z',
      items: [{ subscription_item_id: 'si_1', price_id: 'price_1', plan_id: 'prod_1' }],
      metadata: { stripe_customer_id: 'cus_1' },
    });
  });
});
