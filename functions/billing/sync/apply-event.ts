import type { SyncPhase } from '../../../schemas/billing/provider-sync';
import { appRulesPartition } from '../../resources/keys';
import type { ResourceStore } from '../../resources/resource-store';
import { ServiceUnavailableError, ValidationError } from '../../shared/errors';
import type { ProviderReader } from './provider-reader';
import { RecordWriter, type ProfileWriter } from './record-writer';
import type { SyncTenant } from './sync-records';

/**
 * A provider's verified webhook event applied, whichever provider sent it: once per event id, and as
 * a signal, not the data: the object it names is read from the provider as it is now and written as
 * the sync writes it. So events arriving twice, late or out of order leave the record as the
 * provider has it. What a missed event would have said, the sweep brings in (sync-run.ts).
 */

/** How long an event id is remembered (providers retry a failed delivery for days: Stripe 3, Recurly 5). */
const EVENT_MEMORY_DAYS = 30;

export interface WebhookDeps {
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

/** What a verified event names: its id and type, and the record it is about (none: a type the sync does not follow). */
export interface ProviderEvent {
  readonly id: string;
  readonly type: string;
  readonly about?: { readonly phase: SyncPhase; readonly id: string };
}

/** A webhook's body as JSON, or a 400 saying it is not. */
export function eventJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    throw new ValidationError('The event is not JSON', [{ field: 'body', reason: 'is not JSON' }]);
  }
}

export async function applyProviderEvent(deps: WebhookDeps, tenant: SyncTenant, reader: ProviderReader, event: ProviderEvent): Promise<WebhookOutcome> {
  const { about } = event;
  if (!about) return { received: true, event_id: event.id, outcome: 'ignored' };
  // Stripe's event ids keep their own prefix, as they were remembered before other providers' were.
  const prefix = reader.provider === 'stripe' ? 'STRIPE_EVENT' : `${reader.provider.toUpperCase()}_EVENT`;
  const at = { partition: appRulesPartition(tenant.orgId, tenant.appId), prefix };
  if (await deps.resources.find(at, event.id)) return { received: true, event_id: event.id, outcome: 'duplicate' };
  // The provider down or refusing: 503, and it delivers the event again later.
  const current = await reader.one(about.phase, about.id).catch((error: unknown) => {
    throw new ServiceUnavailableError(
      `${reader.provider} could not be read for ${event.type} ${about.id}: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  const writer = new RecordWriter(deps.resources, deps.writeProfiles, tenant, deps.now, reader.records);
  if (current === undefined) {
    // Gone at the provider (a deleted product): the catalog keeps it, no longer active.
    if (about.phase === 'products' || about.phase === 'prices') await writer.deactivate(about.phase, about.id);
  } else if (!(about.phase === 'customers' && (current as { deleted?: boolean }).deleted)) {
    await writer.write(about.phase, [current]);
  }
  // Remembered once written: a delivery that failed before is applied when the provider sends it again.
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
