import type { ArrivalLagHistogram, Lateness } from '../../../schemas/billing/completeness';
import { Lateness as LatenessSchema } from '../../../schemas/billing/completeness';
import type { QueryNode } from '../../../schemas/search-tree';
import { METER_PREFIX } from '../../management/billing-meters';
import { appRulesPartition } from '../../resources/keys';
import type { ResourceStore } from '../../resources/resource-store';
import { ARRIVAL_LAG_EDGES_MS, lagCovering, type ArrivalLags } from '../../search/arrival-lags';
import { parseSearchRequest } from '../../search/dsl';
import type { SearchableIndex } from '../../search/port';
import { ValidationError } from '../../shared/errors';
import { MIN_SETTLE_MS } from '../run/settle-time';
import { runMeterOf, type RunMeter } from '../run/run-meter';

/**
 * How late a meter's events arrive, measured from what is stored (each event's arrival minus its
 * time, over the last 7 days), and the grace period chosen from it: the bucket bound 99 % of the
 * meter's events arrived within, at least MIN_GRACE_MS and at most MAX_OBSERVED_GRACE_MS (a longer
 * wait holds back every window's report; a meter that needs one sets grace_period_minutes).
 * Kept per meter (`LATENESS#<meter id>`) and measured again once a day.
 */

export const LATENESS_PREFIX = 'LATENESS';
const MEASURED_DAYS = 7;
const DAY_MS = 86_400_000;
/** Fewer events than this say too little about the tail: the minimum grace applies. */
export const MIN_EVENTS_OBSERVED = 1_000;
const COVERED_SHARE = 0.99;
/** The least a window waits (the billing run's own minimum). */
export const MIN_GRACE_MS = MIN_SETTLE_MS;
export const MAX_OBSERVED_GRACE_MS = 3_600_000;

export interface LatenessDeps {
  readonly resources: ResourceStore;
  readonly index: SearchableIndex;
  readonly now: () => Date;
}

export type CompletenessTenant = { readonly orgId: string; readonly appId: string };

const location = (tenant: CompletenessTenant) => ({ partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: LATENESS_PREFIX });

export async function storedLateness(resources: ResourceStore, tenant: CompletenessTenant, meterId: string): Promise<Lateness | undefined> {
  const stored = await resources.find(location(tenant), meterId);
  return stored && LatenessSchema.parse(stored);
}

/** The grace period last observed for the meter, if one could be chosen (what the billing run waits when the meter sets none). */
export async function observedGraceMs(resources: ResourceStore, tenant: CompletenessTenant, meterId: string): Promise<number | undefined> {
  const minutes = (await storedLateness(resources, tenant, meterId))?.observed_grace_minutes;
  return minutes === null || minutes === undefined ? undefined : minutes * 60_000;
}

/** The meter, or a ValidationError naming why it cannot be billed. */
export async function billableMeter(resources: ResourceStore, tenant: CompletenessTenant, meterId: string): Promise<RunMeter> {
  const meter = runMeterOf(await resources.get({ partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: METER_PREFIX }, meterId, 'billing meter'));
  if ('error' in meter) throw new ValidationError(`The meter cannot be billed: ${meter.error}`, [{ field: 'meterId', reason: meter.error }]);
  return meter;
}

/** Measures the meter's lateness now and keeps it. */
export async function measureLateness(deps: LatenessDeps, tenant: CompletenessTenant, meter: RunMeter): Promise<Lateness> {
  const now = deps.now();
  const range = { from: new Date(now.getTime() - MEASURED_DAYS * DAY_MS), to: now };
  const context = { scope: { org_id: tenant.orgId, app_id: tenant.appId }, kind: 'events' as const, range, timeZone: 'UTC', now };
  const query = meterQuery(meter);
  const [app, ofMeter] = await Promise.all([
    deps.index.arrivalLags(context, { type: 'match_all' }),
    query ? deps.index.arrivalLags(context, query) : undefined,
  ]);
  const lags = ofMeter ?? app;
  const minutes = (share: number) => {
    const bound = lagCovering(lags, share);
    return bound === undefined ? null : bound / 60_000;
  };
  const observed = observedGrace(lags);
  const lateness: Lateness = {
    billing_meter_id: meter.id,
    measured_at: now.toISOString(),
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    app: histogram(app),
    meter: histogram(lags),
    p50_minutes: minutes(0.5),
    p90_minutes: minutes(0.9),
    p99_minutes: minutes(COVERED_SHARE),
    ...observed,
  };
  const stored = { _id: meter.id, org_id: tenant.orgId, app_id: tenant.appId, created_at: lateness.measured_at, ...lateness };
  if (!(await deps.resources.create(location(tenant), meter.id, stored))) await deps.resources.update(location(tenant), meter.id, 'lateness', () => stored);
  return lateness;
}

/**
 * The grace period chosen from a meter's lateness: the bound 99 % of its events arrived within,
 * kept between MIN_GRACE_MS and MAX_OBSERVED_GRACE_MS; none from fewer than MIN_EVENTS_OBSERVED events.
 */
export function observedGrace(lags: ArrivalLags): { observed_grace_minutes: number } | { observed_grace_minutes: null; reason: string } {
  if (lags.events < MIN_EVENTS_OBSERVED)
    return {
      observed_grace_minutes: null,
      reason: `${lags.events} events in the last ${MEASURED_DAYS} days; at least ${MIN_EVENTS_OBSERVED} are needed to choose from`,
    };
  const p99 = lagCovering(lags, COVERED_SHARE) ?? MAX_OBSERVED_GRACE_MS;
  return { observed_grace_minutes: Math.min(MAX_OBSERVED_GRACE_MS, Math.max(MIN_GRACE_MS, p99)) / 60_000 };
}

/** The grace period a meter's windows wait: its own setting, else the one observed, else the minimum. */
export function graceOf(meter: RunMeter, lateness: Lateness | undefined): { minutes: number; source: 'configured' | 'observed' | 'minimum' } {
  if (meter.graceMs !== undefined) return { minutes: Math.max(meter.graceMs, MIN_GRACE_MS) / 60_000, source: 'configured' };
  const observed = lateness?.observed_grace_minutes;
  if (observed !== null && observed !== undefined) return { minutes: observed, source: 'observed' };
  return { minutes: MIN_GRACE_MS / 60_000, source: 'minimum' };
}

/** The meter's events query, or undefined when it names one customer's values (measured on the app's events instead). */
function meterQuery(meter: RunMeter): QueryNode | undefined {
  if (meter.perSubscription) return undefined;
  return parseSearchRequest({ query: meter.body['query'] ?? { match_all: {} } }, 'events', { timeZone: 'UTC' }).query;
}

function histogram(lags: ArrivalLags): ArrivalLagHistogram {
  return {
    events: lags.events,
    buckets: lags.counts.map((events, k) => ({ up_to_minutes: k < ARRIVAL_LAG_EDGES_MS.length ? ARRIVAL_LAG_EDGES_MS[k]! / 60_000 : null, events })),
  };
}
