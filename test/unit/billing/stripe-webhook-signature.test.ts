import fc from 'fast-check';
import { phaseOfEvent, verifyStripeSignature } from '../../../functions/billing/sync/stripe-webhooks';
import { signedStripeEvent } from '../../support/fake-providers/fake-stripe-catalog';
import { ValidationError } from '../../../functions/shared/errors';

const now = new Date('2026-11-29T12:00:00Z');

describe('Stripe webhook signatures', () => {
  it('takes any event signed with the secret within 5 minutes, and refuses it once any byte is changed', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.integer({ min: -299, max: 299 }), fc.nat(), (event, skewSeconds, flip) => {
        const { body, signature } = signedStripeEvent('whsec_test', event, new Date(now.getTime() + skewSeconds * 1000));
        expect(() => verifyStripeSignature(Buffer.from(body), signature, 'whsec_test', now)).not.toThrow();
        const bytes = Buffer.from(body);
        const altered = Buffer.from(bytes);
        altered[flip % altered.length] = altered[flip % altered.length]! ^ 1;
        expect(() => verifyStripeSignature(altered, signature, 'whsec_test', now)).toThrow(ValidationError);
        expect(() => verifyStripeSignature(bytes, signature, 'whsec_other', now)).toThrow(ValidationError);
      }),
    );
  });

  it('refuses a signature older than 5 minutes, a missing header and one without v1', () => {
    const { body, signature } = signedStripeEvent('whsec_test', { id: 'evt_1' }, new Date(now.getTime() - 301_000));
    expect(() => verifyStripeSignature(Buffer.from(body), signature, 'whsec_test', now)).toThrow(/older than 5 minutes/);
    expect(() => verifyStripeSignature(Buffer.from(body), undefined, 'whsec_test', now)).toThrow(/missing/);
    expect(() => verifyStripeSignature(Buffer.from(body), 't=1', 'whsec_test', now)).toThrow(/no v1 signature/);
  });

  it('follows the events about products, prices, customers and subscriptions, and no others', () => {
    expect(phaseOfEvent('price.updated')).toBe('prices');
    expect(phaseOfEvent('product.deleted')).toBe('products');
    expect(phaseOfEvent('customer.updated')).toBe('customers');
    expect(phaseOfEvent('customer.subscription.paused')).toBe('subscriptions');
    expect(phaseOfEvent('customer.discount.created')).toBeUndefined();
    expect(phaseOfEvent('invoice.paid')).toBeUndefined();
  });
});
