import type { ReplacementIntake } from '../event-voids';
import { normaliseItems } from '../ingest/collector/normalise';
import { packStreamEntries } from '../ingest/stream/pack-records';
import { NotFoundError } from '../shared/errors';
import type { ServiceStores } from './service-stores';

/**
 * The collector's intake for a replacement's corrected events: the collector's own normalisation
 * (the app's backfill setting included; no caller address is added, as the service sends them), the
 * consumer's dedup claims, and the ingest stream.
 */
export function replacementIntake(stores: ServiceStores): ReplacementIntake {
  const appOf = async (tenant: { orgId: string; appId: string }) => {
    const app = await stores.apps.getApp(tenant.orgId, tenant.appId);
    if (!app) throw new NotFoundError(`The app ${tenant.appId} no longer exists`);
    return app;
  };
  return {
    async prepare(tenant, kind, records, receivedAt) {
      const app = await appOf(tenant);
      return normaliseItems(kind, records, { batch: true }, { receivedAt, sourceIp: '', backfillEnabled: app.settings.backfill_enabled });
    },
    claimed: (tenant, ids) => stores.dedup.claimedIds(tenant.appId, ids),
    async publish(tenant, kind, items) {
      await stores.publisher.publish(packStreamEntries(await appOf(tenant), kind, items));
    },
  };
}
