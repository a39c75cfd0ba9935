import { idempotencyKey } from '../../../functions/billing/providers/idempotency-key';
import type { UsageReportRequest } from '../../../functions/billing/providers/provider-port';
import type { RetryRuntime } from '../../../functions/billing/providers/retry-policy';
import { Decimal } from '../../../values/decimal';

/** A report request as the billing run would build it, for provider tests. */
export function reportRequest<P>(
  params: P,
  options: {
    destination: string;
    subscriptionId?: string;
    companyId?: string;
    customerId?: string;
    windowStart?: Date;
    version?: number;
    quantity: bigint;
    previousQuantity?: bigint;
    reportTotalUsage?: bigint;
  },
): UsageReportRequest<P> {
  // The last whole hour but one: inside every provider's accepted past (Stripe: 35 days) and never in the future.
  const start = options.windowStart ?? new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000);
  const window = { start, end: new Date(start.getTime() + 3_600_000) };
  const identity = {
    orgId: 'org-1',
    appId: 'app-1',
    meterId: 'meter-1',
    subscriptionId: options.subscriptionId ?? 'sub_1',
    windowStart: window.start,
    windowEnd: window.end,
    reportVersion: options.version ?? 1,
    destination: options.destination,
  };
  return {
    identity,
    idempotencyKey: idempotencyKey(identity),
    meter: { id: 'meter-1', name: 'API calls' },
    subscription: {
      subscriptionId: identity.subscriptionId,
      companyId: options.companyId ?? 'company-1',
      ...(options.customerId ? { customerId: options.customerId } : {}),
    },
    window,
    quantity: options.quantity,
    previousQuantity: options.previousQuantity ?? 0n,
    reportTotalUsage: options.reportTotalUsage ?? options.quantity,
    amount: { value: Decimal.from('1.25'), currency: 'usd' },
    params,
  };
}

/** Real clock, no waiting: retries happen at once and the waits asked for are kept. */
export function instantRuntime(): RetryRuntime & { slept: number[] } {
  const slept: number[] = [];
  return {
    slept,
    sleep: async (ms) => {
      slept.push(ms);
    },
    now: () => new Date(),
    random: () => 0.5,
  };
}
