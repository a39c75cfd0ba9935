import type { MeterCompleteness } from '../../../schemas/billing/completeness';
import { windowContaining } from '../../../values/reporting-period';
import type { RunStateStore } from '../run/run-state-store';
import { billableMeter, graceOf, storedLateness, type CompletenessTenant, type LatenessDeps } from './lateness';

export interface CompletenessDeps extends LatenessDeps {
  readonly runState: Pick<RunStateStore, 'readCursor'>;
}

/**
 * Where a meter's data stands: its grace period and where it comes from, the lateness last measured,
 * which windows are final, in grace or open, and the late corrections made after final (from the
 * run's period totals: the current and the last few periods of every subscription).
 */
export async function meterCompleteness(deps: CompletenessDeps, tenant: CompletenessTenant, meterId: string): Promise<MeterCompleteness> {
  const now = deps.now();
  const meter = await billableMeter(deps.resources, tenant, meterId);
  const [lateness, cursor] = await Promise.all([storedLateness(deps.resources, tenant, meterId), deps.runState.readCursor(tenant, meterId)]);
  const grace = graceOf(meter, lateness);
  const openFrom = windowContaining(now, meter.periodMs).start;
  const finalThrough = cursor?.nextWindowStart;
  const oldestInGrace = finalThrough ?? openFrom;
  let corrections = 0;
  let usage = 0;
  for (const total of cursor?.totals.values() ?? []) {
    for (const period of [total, ...(total.earlier ?? [])]) {
      corrections += period.lateCorrections ?? 0;
      usage += period.lateUsage ?? 0;
    }
  }
  return {
    billing_meter_id: meterId,
    grace,
    lateness: lateness ?? null,
    windows: {
      final_through: finalThrough?.toISOString() ?? null,
      open_from: openFrom.toISOString(),
      next_report_at: oldestInGrace < openFrom ? new Date(oldestInGrace.getTime() + meter.periodMs + grace.minutes * 60_000).toISOString() : null,
    },
    late_after_final: { corrections, usage },
  };
}
