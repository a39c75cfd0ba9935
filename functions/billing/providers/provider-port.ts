import type { Decimal } from '../../../values/decimal';
import type { UsageWindow } from '../../../values/reporting-period';
import type { ProviderName } from '../../../schemas/billing/provider-params';
import type { ReportIdentity } from './idempotency-key';
import { ProviderRequestRecord } from '../../../schemas/billing/provider-request';

export { ProviderRequestRecord };

/**
 * The port the billing run reports usage through: one `report` call per report version and
 * destination. Clients never throw for provider trouble; every HTTP attempt comes back as a
 * ProviderRequest record and the outcome says whether the usage is now recorded at the provider.
 */

/** The subscription as the provider knows it. */
export interface ProviderSubscription {
  /** Provider subscription id (Stripe `sub_…`, Chargebee / Recurly subscription id, Zuora subscription number). */
  readonly subscriptionId: string;
  /** The company (Stripe customer, Chargebee customer, Zuora account number). */
  readonly companyId: string;
  /** Provider customer id when it differs from the company id (Stripe `cus_…`). */
  readonly customerId?: string;
  /** The subscription item's price when the subscription carries it (fallback for Chargebee's item price). */
  readonly itemPriceId?: string;
}

export interface UsageReportRequest<P> {
  readonly identity: ReportIdentity;
  /** `idempotencyKey(identity)`: the same for every retry of this version to this destination. */
  readonly idempotencyKey: string;
  readonly meter: { readonly id: string; readonly name?: string };
  readonly subscription: ProviderSubscription;
  readonly window: UsageWindow;
  /** The window's usage as this version counts it (whole units, after multiplier and rounding). */
  readonly quantity: bigint;
  /** What earlier versions of this window already reported (0n for version 1). */
  readonly previousQuantity: bigint;
  /** Period-to-date total (`report_total_usage`), including this window. */
  readonly reportTotalUsage: bigint;
  readonly amount?: { readonly value: Decimal; readonly currency: string };
  readonly params: P;
}

export interface ProviderOutcome {
  /** True when the provider has this version's usage (including an idempotent replay). */
  readonly success: boolean;
  readonly requests: ProviderRequestRecord[];
  /** The provider's id of what was recorded (meter event identifier, usage id …), when it said. */
  readonly providerReference?: string;
  /** True when the provider said it already had this request (replay or dedupe). */
  readonly duplicate: boolean;
}

export interface ProviderClient<P> {
  readonly provider: ProviderName;
  report(request: UsageReportRequest<P>): Promise<ProviderOutcome>;
}

/** The correction to send when a provider adds up what it is sent: the whole window on version 1, the change afterwards. */
export function correctionDelta(request: Pick<UsageReportRequest<unknown>, 'quantity' | 'previousQuantity'>): bigint {
  return request.quantity - request.previousQuantity;
}
