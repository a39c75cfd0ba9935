import type { PriceTerms } from '../../../schemas/billing/catalog';
import { roundToMinorUnit } from '../../../values/currency';
import type { Decimal } from '../../../values/decimal';
import { priceAmount } from '../../billing/pricing/price-amount';
import type { CustomerPeriod } from './customer-period';

/**
 * The quantity a period ends with if usage goes on at its rate so far: total × period length ÷
 * time elapsed, to the nearest unit (half up). Before a whole window has passed the rate says little,
 * but it is what there is; at the period's start (nothing elapsed) the usage itself.
 */
export function projectedQuantity(total: bigint, period: CustomerPeriod, now: Date): bigint {
  const elapsed = BigInt(Math.max(0, now.getTime() - period.start.getTime()));
  const length = BigInt(period.end.getTime() - period.start.getTime());
  if (elapsed === 0n || elapsed >= length) return total;
  return (total * length * 2n + elapsed) / (2n * elapsed);
}

/** A quantity's price as the run reports a period total: exact tiers, then rounded once to the currency. */
export function pricedUsage(
  price: PriceTerms,
  quantity: bigint,
): { amount: Decimal; lines: { tier?: number; units: number; unit_price: string; flat_price: string; amount: string }[] } {
  const priced = priceAmount(price, quantity);
  return {
    amount: roundToMinorUnit(priced.exact_amount, price.currency),
    lines: priced.lines.map((line) => ({ ...line, units: Number(line.units) })),
  };
}
