/**
 * The billing period a quota counts in: the subscription's current period, rolled forward by itself
 * when the subscription was not updated after it ended (so a block lifts at rollover even if the
 * provider's renewal has not reached the collector yet).
 */

export interface BillingPeriod {
  /** Inclusive. */
  readonly start: Date;
  /** Exclusive: usage at this instant belongs to the next period. */
  readonly end: Date;
}

/**
 * The period containing `now`, from the subscription's `current_period_start` / `_end`:
 * - `now` inside it (or before it: a period not begun has no usage yet): that period;
 * - after it: the period as many lengths later as contains `now`. A period whose ends fall on the
 *   same day of month and time of day repeats in calendar months (a period anchored on the 31st
 *   ends on the last day of shorter months, as Stripe bills); any other repeats its exact length;
 * - no usable start and end: the calendar month of `now`, in UTC.
 */
export function currentBillingPeriod(start: Date | null, end: Date | null, now: Date): BillingPeriod {
  if (!start || !end || !(end.getTime() > start.getTime())) return calendarMonth(now);
  if (now.getTime() < end.getTime()) return { start, end };
  const months = wholeMonthsBetween(start, end);
  if (months !== undefined) {
    // Far enough that the next step would pass `now`, then one step at a time (at most two).
    let k = Math.max(1, Math.floor(monthsBetween(start, now) / months));
    while (addMonthsAnchored(start, (k + 1) * months).getTime() <= now.getTime()) k++;
    while (k > 1 && addMonthsAnchored(start, k * months).getTime() > now.getTime()) k--;
    return { start: addMonthsAnchored(start, k * months), end: addMonthsAnchored(start, (k + 1) * months) };
  }
  const length = end.getTime() - start.getTime();
  const k = Math.floor((now.getTime() - start.getTime()) / length);
  return { start: new Date(start.getTime() + k * length), end: new Date(start.getTime() + (k + 1) * length) };
}

function calendarMonth(now: Date): BillingPeriod {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  return { start: new Date(start), end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)) };
}

/** Months from `start` to `end` when `end` is `start` plus whole months (day clamped to the month's end). */
function wholeMonthsBetween(start: Date, end: Date): number | undefined {
  const months = monthsBetween(start, end);
  return months > 0 && addMonthsAnchored(start, months).getTime() === end.getTime() ? months : undefined;
}

function monthsBetween(start: Date, end: Date): number {
  return (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + (end.getUTCMonth() - start.getUTCMonth());
}

/** `anchor` plus `months` calendar months in UTC, the day of month clamped to the target month's last day. */
export function addMonthsAnchored(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(anchor.getUTCDate(), lastDay);
  return new Date(Date.UTC(year, month, day, anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()));
}
