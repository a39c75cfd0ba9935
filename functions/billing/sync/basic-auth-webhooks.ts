import { createHash, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import type { SyncPhase } from '../../../schemas/billing/provider-sync';
import { UnauthorizedError, ValidationError } from '../../shared/errors';
import { eventJson, type ProviderEvent } from './apply-event';

/**
 * Chargebee's webhooks and Zuora's callout notifications, which prove their sender with HTTP basic
 * authentication rather than a signature over the body. That is enough here because an event is
 * only a signal: the object it names is read from the provider's API with the app's own key
 * (apply-event.ts), so a forged or altered body can at most make us read something again. The
 * password is the connection's `webhook_secret`; the user name is not checked.
 */

const REALM = 'Basic realm="provider webhooks", charset="UTF-8"';

/** Compared as digests, so neither the secret's length nor its content leaks through timing. */
function sameSecret(given: string, secret: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(secret));
}

/**
 * Throws a 401 with `WWW-Authenticate` unless the Authorization header is Basic with the secret as
 * its password. Zuora sends a callout without credentials first unless preemptive authentication is
 * on, and sends it again with them on this answer.
 */
export function verifyBasicAuth(_payload: Buffer, header: string | undefined, secret: string): void {
  const refuse = (reason: string) =>
    new UnauthorizedError(`The Authorization header ${reason}`, [{ field: 'authorization', reason }], { 'www-authenticate': REALM });
  if (!header) throw refuse('is missing: basic authentication with the connection’s webhook_secret as the password is needed');
  const [scheme, encoded] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'basic' || !encoded) throw refuse('is not Basic');
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || !sameSecret(decoded.slice(colon + 1), secret)) throw refuse("does not carry the connection's webhook_secret as its password");
}

const Named = z.looseObject({ id: z.string().min(1).max(255) });
const ChargebeeEvent = z.looseObject({
  id: z.string().min(1).max(255),
  event_type: z.string().min(1).max(255),
  content: z.looseObject({ customer: Named.optional(), subscription: Named.optional(), item: Named.optional(), item_price: Named.optional() }).optional(),
});

/** The record a Chargebee event is about, by its type's prefix (`item_price_` before `item_`). */
const CHARGEBEE_PHASES: readonly [prefix: string, phase: SyncPhase, object: 'customer' | 'subscription' | 'item' | 'item_price'][] = [
  ['subscription_', 'subscriptions', 'subscription'],
  ['customer_', 'customers', 'customer'],
  ['item_price_', 'prices', 'item_price'],
  ['item_', 'products', 'item'],
];

/** A Chargebee event (`{id, event_type, content: {<object>: {...}}}`): the object its type is about. */
export function chargebeeEventOf(payload: Buffer): ProviderEvent {
  const parsed = ChargebeeEvent.safeParse(eventJson(payload));
  if (!parsed.success) throw new ValidationError('The body is not a Chargebee event', [{ field: 'body', reason: 'needs id and event_type' }]);
  const { id, event_type: type, content } = parsed.data;
  const match = CHARGEBEE_PHASES.find(([prefix]) => type.startsWith(prefix));
  const named = match ? content?.[match[2]]?.id : undefined;
  return match && named ? { id, type, about: { phase: match[1], id: named } } : { id, type };
}

const ZuoraCallout = z.looseObject({
  event: z.string().min(1).max(255),
  subscription_number: z.string().min(1).max(255).optional(),
  account_number: z.string().min(1).max(255).optional(),
  product_rate_plan_charge_id: z.string().min(1).max(255).optional(),
  product_rate_plan_id: z.string().min(1).max(255).optional(),
});

/** The callout's fields, most specific first: a subscription names its account too. */
const ZUORA_FIELDS: readonly [field: 'subscription_number' | 'account_number' | 'product_rate_plan_charge_id' | 'product_rate_plan_id', phase: SyncPhase][] = [
  ['subscription_number', 'subscriptions'],
  ['account_number', 'customers'],
  ['product_rate_plan_charge_id', 'prices'],
  ['product_rate_plan_id', 'products'],
];

/**
 * A Zuora callout whose body the tenant's callout template writes (docs/provider-sync.md): the
 * event's name and the number or id of what changed. Its id is Zuora's `Zuora-Notification-Id`
 * header, the same on every retry of one notification.
 */
export function zuoraEventOf(payload: Buffer, headers: Readonly<Record<string, string | undefined>>): ProviderEvent {
  const notificationId = headers['zuora-notification-id']?.trim();
  if (!notificationId || notificationId.length > 255)
    throw new ValidationError('The Zuora-Notification-Id header is missing', [{ field: 'zuora-notification-id', reason: 'is missing or longer than 255' }]);
  const parsed = ZuoraCallout.safeParse(eventJson(payload));
  if (!parsed.success)
    throw new ValidationError('The body is not the callout this endpoint takes', [
      { field: 'body', reason: 'needs event, and subscription_number, account_number, product_rate_plan_charge_id or product_rate_plan_id' },
    ]);
  const callout = parsed.data;
  const match = ZUORA_FIELDS.find(([field]) => callout[field] !== undefined);
  return match ? { id: notificationId, type: callout.event, about: { phase: match[1], id: callout[match[0]]! } } : { id: notificationId, type: callout.event };
}
