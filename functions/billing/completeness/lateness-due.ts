import { appsWithMeters, type AppMeters } from '../run/billing-run';
import { measureLateness, storedLateness, type LatenessDeps } from './lateness';

/**
 * Lateness measured on the billing schedule: every active meter once a day (one aggregation over its
 * last 7 days of events, two with the app's), so the grace period the run waits follows what is
 * observed without anyone asking.
 */

export const LATENESS_INTERVAL_MS = 86_400_000;

export async function measureDueLateness(
  deps: LatenessDeps,
  budgetMs: number,
  log: (line: string) => void = () => {},
  listed: Promise<readonly AppMeters[]> = appsWithMeters(deps),
): Promise<{ measured: number; failed: number }> {
  const deadline = Date.now() + budgetMs;
  let measured = 0;
  let failed = 0;
  for (const { tenant, meters } of await listed) {
    for (const meter of meters) {
      if ('error' in meter) continue;
      if (Date.now() >= deadline) return { measured, failed };
      const last = await storedLateness(deps.resources, tenant, meter.id);
      if (last && deps.now().getTime() - Date.parse(last.measured_at) < LATENESS_INTERVAL_MS) continue;
      try {
        await measureLateness(deps, tenant, meter);
        measured += 1;
      } catch (error) {
        failed += 1;
        log(`lateness of meter ${meter.id} (${tenant.orgId}/${tenant.appId}) could not be measured: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return { measured, failed };
}
