import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import type { SyncPhase } from '../../../schemas/billing/provider-sync';
import { ValidationError } from '../../shared/errors';
import { eventJson, type ProviderEvent } from './apply-event';

/**
 * Stripe's webhooks keeping synced records current within seconds: an event is taken only when
 * signed with the endpoint's secret (Stripe-Signature, within 5 minutes); what it names is applied
 * by applyProviderEvent (apply-event.ts).
 */

/** Stripe's default tolerance between the signature's timestamp and now. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const StripeEvent = z.looseObject({
  id: z.string().min(1).max(255),
  type: z.string().min(1),
  created: z.number().int(),
  data: z.looseObject({ object: z.looseObject({ id: z.string().min(1) }) }),
});

/** The kind of record an event type is about; other events are acknowledged and left alone. */
export function phaseOfEvent(type: string): SyncPhase | undefined {
  if (type.startsWith('product.')) return 'products';
  if (type.startsWith('price.')) return 'prices';
  if (type.startsWith('customer.subscription.')) return 'subscriptions';
  if (/^customer\.(created|updated|deleted)$/.test(type)) return 'customers';
  return undefined;
}

/** Throws a 400 naming the header unless one of its v1 signatures is the secret's HMAC of `t.payload`. */
export function verifyStripeSignature(payload: Buffer, header: string | undefined, secret: string, now: Date): void {
  const refuse = (reason: string) => new ValidationError(`The Stripe-Signature header ${reason}`, [{ field: 'stripe-signature', reason }]);
  if (!header) throw refuse('is missing');
  const parts = header.split(',').map((part) => part.split('=', 2) as [string, string | undefined]);
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  const signatures = parts.filter(([name, value]) => name === 'v1' && value).map(([, value]) => value!);
  if (!Number.isInteger(timestamp) || signatures.length === 0) throw refuse('has no timestamp or no v1 signature');
  if (Math.abs(now.getTime() / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) throw refuse('is older than 5 minutes (or from the future)');
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest();
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw refuse("does not match the payload with the endpoint's signing secret");
}

/** A verified Stripe event's payload: the object it names, for applyProviderEvent. */
export function stripeEventOf(payload: Buffer): ProviderEvent {
  const parsed = StripeEvent.safeParse(eventJson(payload));
  if (!parsed.success) throw new ValidationError('The body is not a Stripe event', [{ field: 'body', reason: 'needs id, type, created and data.object.id' }]);
  const event = parsed.data;
  const phase = phaseOfEvent(event.type);
  return { id: event.id, type: event.type, ...(phase ? { about: { phase, id: event.data.object.id } } : {}) };
}
