import { Decimal, type RoundingMode } from '../../../values/decimal';

/** A meter's usage adjustments from `billing_plan.params`. */
export interface UsageAdjustment {
  /** Multiplies raw usage (e.g. 0.001 to bill per thousand calls, 2 to double-count). Default 1. */
  readonly usage_multiplier?: number | string;
  /**
   * How a fractional adjusted usage becomes the integer quantity reported: `up` (ceiling), `down`
   * (floor), `nearest` (half away from zero). Default `nearest`.
   */
  readonly usage_rounding_mode?: RoundingMode;
}

/**
 * The integer quantity reported for a raw metered usage (which may be fractional: sampled events
 * weigh 1 / sample rate). The multiplier is applied exactly, then rounded once.
 */
export function reportedQuantity(rawUsage: Decimal | string | number, adjustment: UsageAdjustment = {}): bigint {
  return quantityRule(adjustment)(Decimal.from(rawUsage));
}

/**
 * reportedQuantity for one meter's many usages: the multiplier is read once (and skipped when it is
 * 1, as it is for most meters), not once per report.
 */
export function quantityRule(adjustment: UsageAdjustment = {}): (rawUsage: Decimal) => bigint {
  const multiplier = Decimal.from(adjustment.usage_multiplier ?? 1);
  const mode = adjustment.usage_rounding_mode ?? 'nearest';
  if (multiplier.compare(Decimal.ONE) === 0) return (rawUsage) => rawUsage.round(0, mode).toScaledBigInt(0);
  return (rawUsage) => rawUsage.times(multiplier).round(0, mode).toScaledBigInt(0);
}
