import { appRulesPartition } from '../../resources/keys';
import { METER_PREFIX } from '../../management/billing-meters';
import type { ReportTenant } from '../reports/report-store';
import { runMeterOf, type RunMeter } from './run-meter';
import { SubscriptionDirectory } from './subscription-directory';
import type { BillingRunDeps, BillingRunInput, BillingRunSummary } from './billing-run-types';
import type { RunCounters } from './meter-run-types';
import { MeterRun } from './meter-run';
import { meterSetupWarnings } from '../meter-check/meter-setup-warnings';
export type { BillingRunDeps, BillingRunSettings, BillingRunHooks, BillingProgress, BillingRunSummary, BillingRunInput } from './billing-run-types';

/**
 * The billing run: for every app with active meters, for every meter, evaluate each closed window
 * once (grouped aggregation → attribution → reports → ONE commit of reports, totals and cursor),
 * deliver the new reports, re-evaluate windows touched by late events, and resend reports still
 * pending or retrying from earlier runs. A crash anywhere leaves either the previous state or the
 * committed window: the next run recomputes the uncommitted window, or resends the committed one
 * with the same idempotency keys.
 */

/** Every app that has meters, with its meters (the schedule's checks beside billing read this once a tick). */
export type AppMeters = { readonly tenant: ReportTenant; readonly meters: Awaited<ReturnType<typeof activeMeters>> };
export async function appsWithMeters(deps: Pick<BillingRunDeps, 'resources'>): Promise<AppMeters[]> {
  const listed: AppMeters[] = [];
  for (const tenant of await tenantsWithMeters(deps)) listed.push({ tenant, meters: await activeMeters(deps, tenant) });
  return listed;
}

export async function runBilling(input: BillingRunInput): Promise<BillingRunSummary> {
  const { deps, now } = input;
  const hooks = input.hooks ?? {};
  const settings = input.settings ?? {};
  const clock = hooks.clock ?? (() => new Date());
  const started = clock();
  const deadline = started.getTime() + (input.timeBudgetMs ?? Number.POSITIVE_INFINITY);
  const counters: RunCounters = {
    meters: 0,
    windowsEvaluated: 0,
    corrections: 0,
    reportsWritten: 0,
    delivered: 0,
    retrying: 0,
    failed: 0,
    unattributed: 0,
    queryMs: 0,
  };
  const errors: BillingRunSummary['errors'] = [];
  const warnings: BillingRunSummary['warnings'] = [];
  let complete = true;
  const tenants = await (deps.tenants ?? (() => tenantsWithMeters(deps)))();
  for (const tenant of tenants) {
    let meters: Awaited<ReturnType<typeof activeMeters>>;
    let directory: SubscriptionDirectory;
    try {
      meters = await activeMeters(deps, tenant);
      if (meters.length === 0) continue;
      directory = await SubscriptionDirectory.load(deps.index, { org_id: tenant.orgId, app_id: tenant.appId }, now);
    } catch (error) {
      // One app's trouble (its search data, its meters) must not stop the others' billing.
      errors.push({ tenant, meterId: '*', message: error instanceof Error ? error.message : String(error) });
      continue;
    }
    const balances = deps.balanceProbe(tenant);
    for (const meter of meters) {
      if ('error' in meter) {
        errors.push({ tenant, meterId: meter.id, message: meter.error });
        continue;
      }
      counters.meters += 1;
      for (const warning of meterSetupWarnings(meter, directory)) warnings.push({ tenant, meterId: meter.id, meterName: meter.name, ...warning });
      try {
        const finished = await new MeterRun({ deps, settings, hooks, input, tenant, meter, directory, balances, counters, deadline, clock }).run();
        if (!finished) complete = false;
      } catch (error) {
        errors.push({ tenant, meterId: meter.id, message: error instanceof Error ? error.message : String(error) });
      }
      if (clock().getTime() >= deadline) {
        complete = false;
        break;
      }
    }
    if (!complete) break;
  }
  return { startedAt: started.toISOString(), durationMs: clock().getTime() - started.getTime(), complete, ...counters, errors, warnings };
}

export async function activeMeters(deps: Pick<BillingRunDeps, 'resources'>, tenant: ReportTenant): Promise<(RunMeter | { id: string; error: string })[]> {
  const store = deps.resources;
  const meters: (RunMeter | { id: string; error: string })[] = [];
  let beforeId: string | undefined;
  do {
    const page = await store.list(
      { partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: METER_PREFIX },
      { take: 1000, ...(beforeId ? { beforeId } : {}) },
    );
    for (const item of page.items) {
      if ((item.document['status'] ?? 'active') !== 'active') continue;
      meters.push(runMeterOf({ ...item.document, _id: item.document['_id'] ?? item.id }));
    }
    beforeId = page.nextBeforeId;
  } while (beforeId);
  // Oldest meter first: a stable order across runs.
  return meters.reverse();
}

/** Apps that have a meter (the registry of the partitions holding meters: no scan of other tenants' data). */
export async function tenantsWithMeters(deps: Pick<BillingRunDeps, 'resources'>): Promise<ReportTenant[]> {
  const found = new Map<string, ReportTenant>();
  for (const partition of await deps.resources.partitionsHolding(METER_PREFIX)) {
    const match = /^ORG#([^#]+)#APP#([^#]+)$/.exec(partition);
    if (match) found.set(partition, { orgId: match[1]!, appId: match[2]! });
  }
  return [...found.values()];
}
