import type { PriceTerms } from '../../../schemas/billing/catalog';
import { roundToMinorUnit } from '../../../values/currency';
import { Decimal } from '../../../values/decimal';

/** One line of a price computation: what was charged for which units, so every amount can be explained. */
export interface PriceLine {
  /** Tier position (0-based) for tiered prices; absent for per-unit and package prices. */
  readonly tier?: number;
  readonly units: bigint;
  readonly unit_price: string;
  readonly flat_price: string;
  readonly amount: string;
}

export interface PriceAmount {
  /** The quantity after transform_quantity (packages for package pricing). */
  readonly billable_quantity: bigint;
  /** Exact amount, before rounding to the currency. */
  readonly exact_amount: Decimal;
  /** The amount rounded (half away from zero) to the currency's minor unit. */
  readonly amount: Decimal;
  readonly currency: string;
  readonly lines: readonly PriceLine[];
}

/**
 * The amount a price charges for a usage quantity, exactly:
 * - per_unit: quantity × price (after transform_quantity, if any);
 * - package: ceil/floor(quantity / divide_by) packages × price;
 * - volume: every unit at the unit price of the tier the whole quantity falls in, plus that tier's flat price;
 * - graduated: each tier's units at that tier's unit price, plus the flat price of every tier that
 *   at least one unit reaches.
 */
export function priceAmount(price: PriceTerms, quantity: bigint): PriceAmount {
  if (quantity < 0n) throw new RangeError(`quantity ${quantity} is negative`);
  const billable = transformed(price, quantity);
  const lines =
    price.pricing_model === 'volume'
      ? volumeLines(price, billable)
      : price.pricing_model === 'graduated'
        ? graduatedLines(price, billable)
        : [line(undefined, billable, Decimal.from(price.price_in_decimal ?? '0'), Decimal.ZERO)];
  const exact = Decimal.sum(lines.map((l) => Decimal.from(l.amount)));
  return { billable_quantity: billable, exact_amount: exact, amount: roundToMinorUnit(exact, price.currency), currency: price.currency, lines };
}

function transformed(price: PriceTerms, quantity: bigint): bigint {
  const transform = price.transform_quantity;
  if (!transform || price.pricing_model === 'volume' || price.pricing_model === 'graduated') return quantity;
  const divisor = BigInt(transform.divide_by);
  const whole = quantity / divisor;
  return transform.round === 'up' && quantity % divisor !== 0n ? whole + 1n : whole;
}

function volumeLines(price: PriceTerms, quantity: bigint): PriceLine[] {
  const tiers = price.tiers ?? [];
  const index = tiers.findIndex((t) => t.up_to === 'inf' || quantity <= BigInt(t.up_to));
  if (index === -1) throw new RangeError(`quantity ${quantity} is beyond the last tier`);
  const tier = tiers[index]!;
  return [line(index, quantity, Decimal.from(tier.unit_price_in_decimal ?? '0'), Decimal.from(tier.flat_price_in_decimal ?? '0'))];
}

function graduatedLines(price: PriceTerms, quantity: bigint): PriceLine[] {
  const lines: PriceLine[] = [];
  let floor = 0n;
  for (const [index, tier] of (price.tiers ?? []).entries()) {
    if (quantity <= floor) break;
    const ceiling = tier.up_to === 'inf' ? quantity : BigInt(tier.up_to);
    const units = (quantity < ceiling ? quantity : ceiling) - floor;
    lines.push(line(index, units, Decimal.from(tier.unit_price_in_decimal ?? '0'), Decimal.from(tier.flat_price_in_decimal ?? '0')));
    floor = ceiling;
  }
  if (quantity > floor) throw new RangeError(`quantity ${quantity} is beyond the last tier`);
  return lines;
}

function line(tier: number | undefined, units: bigint, unitPrice: Decimal, flatPrice: Decimal): PriceLine {
  const amount = unitPrice.times(units).plus(flatPrice);
  return { ...(tier === undefined ? {} : { tier }), units, unit_price: unitPrice.toString(), flat_price: flatPrice.toString(), amount: amount.toString() };
}
