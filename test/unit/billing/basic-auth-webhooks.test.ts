import fc from 'fast-check';
import { chargebeeEventOf, verifyBasicAuth, zuoraEventOf } from '../../../functions/billing/sync/basic-auth-webhooks';
import { UnauthorizedError, ValidationError } from '../../../functions/shared/errors';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
const body = (value: unknown) => Buffer.from(JSON.stringify(value));
const noBody = Buffer.alloc(0);

describe('webhooks proven by basic authentication (Chargebee, Zuora)', () => {
  it('takes any user name with the secret as the password, and refuses every other password with a challenge', () => {
    fc.assert(
      fc.property(
        fc.string().filter((user) => !user.includes(':')),
        fc.string({ minLength: 1, maxLength: 80 }),
        fc.string({ maxLength: 80 }),
        (user, secret, other) => {
          expect(() => verifyBasicAuth(noBody, basic(user, secret), secret)).not.toThrow();
          if (other === secret) return;
          try {
            verifyBasicAuth(noBody, basic(user, other), secret);
            throw new Error('a wrong password was taken');
          } catch (error) {
            expect(error).toBeInstanceOf(UnauthorizedError);
            expect((error as UnauthorizedError).headers['www-authenticate']).toMatch(/^Basic realm=/);
          }
        },
      ),
    );
  });

  it('refuses a missing header, another scheme and credentials without a colon', () => {
    expect(() => verifyBasicAuth(noBody, undefined, 's3cret')).toThrow(/missing/);
    expect(() => verifyBasicAuth(noBody, 'Bearer s3cret', 's3cret')).toThrow(/not Basic/);
    expect(() => verifyBasicAuth(noBody, `Basic ${Buffer.from('s3cret').toString('base64')}`, 's3cret')).toThrow(UnauthorizedError);
  });

  it("names the record a Chargebee event's type is about, item prices before items, and nothing for other types", () => {
    const event = (event_type: string, content: Record<string, unknown>) => chargebeeEventOf(body({ id: 'ev_1', event_type, content }));
    expect(event('customer_changed', { customer: { id: 'cus_1' } }).about).toEqual({ phase: 'customers', id: 'cus_1' });
    expect(event('subscription_renewed', { subscription: { id: 'sub_1' }, customer: { id: 'cus_1' } }).about).toEqual({
      phase: 'subscriptions',
      id: 'sub_1',
    });
    expect(event('item_price_updated', { item_price: { id: 'ip_1' } }).about).toEqual({ phase: 'prices', id: 'ip_1' });
    expect(event('item_deleted', { item: { id: 'it_1' } }).about).toEqual({ phase: 'products', id: 'it_1' });
    expect(event('invoice_generated', { invoice: { id: 'inv_1' } })).toEqual({ id: 'ev_1', type: 'invoice_generated' });
    // A type about a customer whose content does not carry it: acknowledged, nothing read.
    expect(event('customer_changed', {}).about).toBeUndefined();
    expect(() => chargebeeEventOf(body({ event_type: 'customer_changed' }))).toThrow(ValidationError);
    expect(() => chargebeeEventOf(Buffer.from('not json'))).toThrow(/not JSON/);
  });

  it("takes a Zuora callout's id from its notification header and the most specific record its body names", () => {
    const headers = { 'zuora-notification-id': 'n-1' };
    expect(zuoraEventOf(body({ event: 'SubscriptionCreated', subscription_number: 'S-1', account_number: 'A-1' }), headers)).toEqual({
      id: 'n-1',
      type: 'SubscriptionCreated',
      about: { phase: 'subscriptions', id: 'S-1' },
    });
    expect(zuoraEventOf(body({ event: 'AccountEdit', account_number: 'A-1' }), headers).about).toEqual({ phase: 'customers', id: 'A-1' });
    expect(zuoraEventOf(body({ event: 'X', product_rate_plan_charge_id: 'c1', product_rate_plan_id: 'p1' }), headers).about).toEqual({
      phase: 'prices',
      id: 'c1',
    });
    expect(zuoraEventOf(body({ event: 'X', product_rate_plan_id: 'p1' }), headers).about).toEqual({ phase: 'products', id: 'p1' });
    expect(zuoraEventOf(body({ event: 'PaymentProcessed' }), headers)).toEqual({ id: 'n-1', type: 'PaymentProcessed' });
    expect(() => zuoraEventOf(body({ event: 'AccountEdit', account_number: 'A-1' }), {})).toThrow(/Zuora-Notification-Id/);
    expect(() => zuoraEventOf(body({ account_number: 'A-1' }), headers)).toThrow(ValidationError);
  });
});
