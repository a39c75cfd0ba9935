import type { Reconciliation, ReconciliationCorrection, ReconciliationDrift } from '../../../schemas/billing/reconciliation';
import { Reconciliation as ReconciliationSchema } from '../../../schemas/billing/reconciliation';
import { appRulesPartition } from '../../resources/keys';
import type { ResourceStore } from '../../resources/resource-store';
import type { SearchableIndex } from '../../search/port';
import { mapWithConcurrency } from '../../shared/concurrency';
import { ValidationError } from '../../shared/errors';
import { METER_PREFIX } from '../../management/billing-meters';
import { subscriptionReportKey } from '../reports/report-id';
import { runMeterOf, type RunMeter } from '../run/run-meter';
import type { RunStateStore } from '../run/run-state-store';
import { SubscriptionDirectory } from '../run/subscription-directory';
import type { ProviderClient } from '../providers/provider-port';
import type { ProviderUsageTotals } from './stripe-usage-totals';
import type { ReportStore } from '../reports/report-store';
import { webhookAcknowledged } from './webhook-acknowledged';

/**
 * Reconcile out: for each subscription a meter has reported, the current period's usage as the run
 * reported it (its period-to-date total, corrections included) against what the provider holds for
 * the same customer and period. Kept per meter (`RECONCILE#<meter id>`), with when each drift was
 * first seen.
 */

export const RECONCILE_PREFIX = 'RECONCILE';
/** Provider reads at once (Stripe allows 100 reads a second in live mode). */
const READS_IN_FLIGHT = 16;
const MAX_DRIFT_SHOWN = 500;
const MAX_UNKNOWN_SHOWN = 50;
const MAX_CORRECTIONS_KEPT = 200;

export interface ReconcileDeps {
  readonly resources: ResourceStore;
  readonly runState: Pick<RunStateStore, 'readCursor'>;
  /** The report windows a webhook meter's acknowledgements are read from. */
  readonly reports: Pick<ReportStore, 'windowsBetween'>;
  readonly index: SearchableIndex;
  /** The app's account at a provider (its usage read back, and for Stripe the client drift corrections go through); undefined without a connection. */
  readonly accountOf: (tenant: { orgId: string; appId: string }, provider: Exclude<ReconciledProvider, 'webhook'>) => Promise<ReconcileAccount | undefined>;
  readonly now: () => Date;
}

export type ReconcileTenant = { readonly orgId: string; readonly appId: string };

export type ReconciledProvider = Reconciliation['provider'];
const TITLES: Record<ReconciledProvider, string> = { stripe: 'Stripe', chargebee: 'Chargebee', recurly: 'Recurly', zuora: 'Zuora', webhook: 'the receiver' };

export interface ReconcileAccount {
  readonly totals: ProviderUsageTotals;
  /** The client drift corrections go through; none where they cannot be sent (a webhook receiver). */
  readonly corrections?: ProviderClient<never>;
  /**
   * How the provider takes a correction: `signed` (Stripe, Recurly, Zuora add usage up, negative
   * included: the difference is sent); `added-usage` (Chargebee keeps one usage per date and takes no
   * negative one: a shortfall is sent as a usage of its own, an excess cannot be taken back).
   */
  readonly correctsBy?: 'signed' | 'added-usage';
}

const location = (tenant: ReconcileTenant) => ({ partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: RECONCILE_PREFIX });

export async function lastReconciliation(resources: ResourceStore, tenant: ReconcileTenant, meterId: string): Promise<Reconciliation | undefined> {
  const stored = await resources.find(location(tenant), meterId);
  return stored && ReconciliationSchema.parse(stored);
}

/** The drift every meter's last reconciliation found: `<meter id>/<subscription id>` → |difference| (the `reconciliation_drift` alert's series). */
export async function driftOfApp(resources: ResourceStore, tenant: ReconcileTenant): Promise<Map<string, number>> {
  const drift = new Map<string, number>();
  let beforeId: string | undefined;
  do {
    const page = await resources.list(location(tenant), { take: 100, ...(beforeId ? { beforeId } : {}) });
    for (const { document } of page.items) {
      const parsed = ReconciliationSchema.safeParse(document);
      if (!parsed.success) continue;
      for (const entry of parsed.data.drift) drift.set(`${parsed.data.billing_meter_id}/${entry.subscription_id}`, Math.abs(entry.difference));
    }
    beforeId = page.nextBeforeId;
  } while (beforeId !== undefined);
  return drift;
}

/**
 * The meter and the app's account at its provider; none for a webhook meter, whose receiver is read
 * through what it acknowledged (webhook-acknowledged.ts). A ValidationError names what is missing.
 */
export async function reconciledMeterOf(
  deps: ReconcileDeps,
  tenant: ReconcileTenant,
  meterId: string,
  account?: ReconcileAccount,
): Promise<{ meter: RunMeter; provider: ReconciledProvider; account: ReconcileAccount | undefined }> {
  const meter = runMeterOf(
    await deps.resources.get({ partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: METER_PREFIX }, meterId, 'billing meter'),
  );
  if ('error' in meter) throw new ValidationError(`The meter cannot be reconciled: ${meter.error}`, [{ field: 'meterId', reason: meter.error }]);
  const provider = meter.provider;
  if (provider === 'webhook') return { meter, provider, account: undefined };
  const found = account ?? (await deps.accountOf(tenant, provider));
  if (!found)
    throw new ValidationError(`The app has no ${TITLES[provider]} connection to read back from`, [{ field: 'provider', reason: `no ${provider} connection` }]);
  return { meter, provider, account: found };
}

export async function reconcileMeter(deps: ReconcileDeps, tenant: ReconcileTenant, meterId: string, account?: ReconcileAccount): Promise<Reconciliation> {
  const now = deps.now();
  const { meter, provider, account: found } = await reconciledMeterOf(deps, tenant, meterId, account);
  const [cursor, directory, previous] = await Promise.all([
    deps.runState.readCursor(tenant, meterId),
    SubscriptionDirectory.load(deps.index, { org_id: tenant.orgId, app_id: tenant.appId }, now),
    lastReconciliation(deps.resources, tenant, meterId),
  ]);
  const before = new Map((previous?.drift ?? []).map((d) => [`${d.subscription_id}\u0000${d.period_start}\u0000${d.difference}`, d.since]));
  const reported = [...(cursor?.totals ?? [])].filter(([key]) => key.startsWith(subscriptionReportKey('')));
  const totals =
    found?.totals ??
    (await webhookAcknowledged(
      deps.reports,
      tenant,
      meter,
      new Date(Math.min(now.getTime(), ...reported.map(([, total]) => Date.parse(total.periodStart)))),
      now,
    ));
  const outcomes = await mapWithConcurrency(reported, READS_IN_FLIGHT, async ([key, total]) => {
    const subscriptionId = key.slice(subscriptionReportKey('').length);
    const known = directory.subscriptions.get(subscriptionId);
    // The customer the run reported to (deliver-reports.ts): the subscription's provider customer, else its company.
    const customer = String(known?.metadata[`${provider}_customer_id`] ?? known?.metadata['customer_id'] ?? known?.companyId ?? '');
    if (!customer) return { unknown: { subscription_id: subscriptionId, reason: 'the subscription is no longer known' } };
    const to = new Date(Math.min(Date.parse(total.periodEnd), now.getTime()));
    const held = await totals
      .totalOf({ params: meter.params, subscriptionId, customer, from: new Date(total.periodStart), to })
      .catch((error: unknown) => ({ unknown: `${TITLES[provider]} could not be read: ${error instanceof Error ? error.message : String(error)}` }));
    if ('unknown' in held) return { unknown: { subscription_id: subscriptionId, reason: held.unknown } };
    if (held.value === total.usage) return { matched: true };
    const difference = held.value - total.usage;
    const drift: ReconciliationDrift = {
      subscription_id: subscriptionId,
      customer,
      period_start: total.periodStart,
      period_end: total.periodEnd,
      reported: total.usage,
      provider: held.value,
      difference,
      since: before.get(`${subscriptionId}\u0000${total.periodStart}\u0000${difference}`) ?? now.toISOString(),
    };
    return { drift };
  });
  const drift = outcomes.flatMap((o) => ('drift' in o && o.drift ? [o.drift] : []));
  const unknown = outcomes.flatMap((o) => ('unknown' in o && o.unknown ? [o.unknown] : []));
  const result: Reconciliation = {
    billing_meter_id: meterId,
    provider,
    checked_at: now.toISOString(),
    counts: { matched: outcomes.length - drift.length - unknown.length, drift: drift.length, unknown: unknown.length },
    drift: drift.sort((a, b) => Math.abs(b.difference) - Math.abs(a.difference)).slice(0, MAX_DRIFT_SHOWN),
    unknown: unknown.slice(0, MAX_UNKNOWN_SHOWN),
  };
  return saveReconciliation(deps.resources, tenant, result);
}

/** Stores a meter's reconciliation (its corrections so far are kept) and answers it as stored. */
export async function saveReconciliation(
  resources: ResourceStore,
  tenant: ReconcileTenant,
  result: Omit<Reconciliation, 'corrections'>,
): Promise<Reconciliation> {
  const meterId = result.billing_meter_id;
  const stored = { _id: meterId, org_id: tenant.orgId, app_id: tenant.appId, created_at: result.checked_at, ...result };
  if (await resources.create(location(tenant), meterId, stored)) return result;
  const updated = await resources.update(location(tenant), meterId, 'reconciliation', (current) => ({ ...current, ...result }));
  return ReconciliationSchema.parse(updated);
}

/** Adds corrections to the meter's record, newest first, keeping the last MAX_CORRECTIONS_KEPT. */
export async function recordCorrections(resources: ResourceStore, tenant: ReconcileTenant, meterId: string, corrections: readonly ReconciliationCorrection[]) {
  if (corrections.length === 0) return;
  await resources.update(location(tenant), meterId, 'reconciliation', (current) => {
    const earlier = ReconciliationSchema.shape.corrections.parse(current['corrections']) ?? [];
    return { ...current, corrections: [...corrections, ...earlier].slice(0, MAX_CORRECTIONS_KEPT) };
  });
}
