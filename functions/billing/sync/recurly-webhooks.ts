import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import { ValidationError } from '../../shared/errors';
import { eventJson, type ProviderEvent } from './apply-event';

/**
 * Recurly's JSON webhooks keeping synced accounts and subscriptions current: an event is taken only
 * when signed with the endpoint's secret (`recurly-signature`: a timestamp in milliseconds, then one
 * or more hex HMAC-SHA256 signatures of `<timestamp>.<body>`, within 5 minutes); an account event
 * names its account code, a subscription event its uuid, and either is read from Recurly as it is
 * now (apply-event.ts). Catalog changes come with the sweep.
 */

const TOLERANCE_MS = 300_000;

const RecurlyEvent = z.looseObject({
  id: z.string().min(1).max(255),
  object_type: z.string().min(1),
  event_type: z.string().min(1),
  account_code: z.string().min(1).optional(),
  uuid: z.string().min(1).optional(),
});

/** Throws a 400 naming the header unless one of its signatures is the secret's HMAC of `timestamp.payload`. */
export function verifyRecurlySignature(payload: Buffer, header: string | undefined, secret: string, now: Date): void {
  const refuse = (reason: string) => new ValidationError(`The recurly-signature header ${reason}`, [{ field: 'recurly-signature', reason }]);
  if (!header) throw refuse('is missing');
  const [timestampText, ...signatures] = header.split(',').map((part) => part.trim());
  const timestamp = Number(timestampText);
  if (!Number.isInteger(timestamp) || signatures.length === 0) throw refuse('has no timestamp or no signature');
  if (Math.abs(now.getTime() - timestamp) > TOLERANCE_MS) throw refuse('is older than 5 minutes (or from the future)');
  const expected = createHmac('sha256', secret).update(`${timestampText}.`).update(payload).digest();
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw refuse("does not match the payload with the endpoint's secret");
}

/** A verified Recurly event's payload: the account or subscription it names, for applyProviderEvent. */
export function recurlyEventOf(payload: Buffer): ProviderEvent {
  const parsed = RecurlyEvent.safeParse(eventJson(payload));
  if (!parsed.success) throw new ValidationError('The body is not a Recurly event', [{ field: 'body', reason: 'needs id, object_type and event_type' }]);
  const event = parsed.data;
  const type = `${event.object_type}.${event.event_type}`;
  if (event.object_type === 'account' && event.account_code) return { id: event.id, type, about: { phase: 'customers', id: `code-${event.account_code}` } };
  if (event.object_type === 'subscription' && event.uuid) return { id: event.id, type, about: { phase: 'subscriptions', id: `uuid-${event.uuid}` } };
  return { id: event.id, type };
}
