import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod';
import type { SyncPhase } from '../../../schemas/billing/provider-sync';
import type { ResourceStore } from '../../resources/resource-store';
import { appRulesPartition } from '../../resources/keys';
import { ServiceUnavailableError, ValidationError } from '../../shared/errors';
import { RecordWriter, type ProfileWriter } from './record-writer';
import type { ProviderReader } from './provider-reader';
import type { SyncTenant } from './sync-records';

/**
 * Stripe's webhooks keeping synced records current within seconds: an event is taken only when
 * signed with the endpoint's secret (Stripe-Signature, within 5 minutes), once per event id, and it
 * is a signal, not the data: the object it names is read from Stripe as it is now and written as the
 * sync writes it. So events arriving twice, late or out of order leave the record as Stripe has it.
 * What a missed event would have said, the sweep brings in (sync-run.ts).
 */

/** Stripe's default tolerance between the signature's timestamp and now. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** How long an event id is remembered (Stripe retries a failed delivery for up to 3 days). */
const EVENT_MEMORY_DAYS = 30;
const EVENT_PREFIX = 'STRIPE_EVENT';

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

export interface StripeWebhookDeps {
  readonly resources: ResourceStore;
  readonly writeProfiles: ProfileWriter;
  readonly now: () => Date;
}

export interface WebhookOutcome {
  readonly received: true;
  readonly event_id: string;
  /** What became of it: the record written, an event seen before, or a type the sync does not follow. */
  readonly outcome: 'applied' | 'duplicate' | 'ignored';
}

/** One verified event's payload, for the app whose Stripe account sent it. */
export async function applyStripeEvent(deps: StripeWebhookDeps, tenant: SyncTenant, reader: ProviderReader, payload: Buffer): Promise<WebhookOutcome> {
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    throw new ValidationError('The event is not JSON', [{ field: 'body', reason: 'is not JSON' }]);
  }
  const parsed = StripeEvent.safeParse(json);
  if (!parsed.success) throw new ValidationError('The body is not a Stripe event', [{ field: 'body', reason: 'needs id, type, created and data.object.id' }]);
  const event = parsed.data;
  const phase = phaseOfEvent(event.type);
  if (!phase) return { received: true, event_id: event.id, outcome: 'ignored' };
  const at = { partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: EVENT_PREFIX };
  if (await deps.resources.find(at, event.id)) return { received: true, event_id: event.id, outcome: 'duplicate' };
  // Stripe down or refusing: 503, and Stripe delivers the event again later.
  const current = await reader.one(phase, event.data.object.id).catch((error: unknown) => {
    throw new ServiceUnavailableError(
      `Stripe could not be read for ${event.type} ${event.data.object.id}: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  const writer = new RecordWriter(deps.resources, deps.writeProfiles, tenant, deps.now, reader.records);
  if (current === undefined) {
    // Gone at Stripe (a deleted product): the catalog keeps it, no longer active.
    if (phase === 'products' || phase === 'prices') await writer.deactivate(phase, event.data.object.id);
  } else if (!(phase === 'customers' && (current as { deleted?: boolean }).deleted)) {
    await writer.write(phase, [current]);
  }
  // Remembered once written: a delivery that failed before is applied when Stripe sends it again.
  const now = deps.now();
  await deps.resources.create(at, event.id, {
    _id: event.id,
    org_id: tenant.orgId,
    app_id: tenant.appId,
    created_at: now.toISOString(),
    type: event.type,
    expires_at: Math.floor(now.getTime() / 1000) + EVENT_MEMORY_DAYS * 86_400,
  });
  return { received: true, event_id: event.id, outcome: 'applied' };
}
