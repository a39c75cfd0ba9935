/** Time ranges as the search API takes them: relative (`-24h`) or absolute ISO instants. */
export interface TimeRange {
  readonly from: string;
  readonly to: string;
}

export const RELATIVE_RANGES: readonly { label: string; from: string }[] = [
  { label: 'Last 15 minutes', from: '-15m' },
  { label: 'Last hour', from: '-1h' },
  { label: 'Last 24 hours', from: '-24h' },
  { label: 'Last 7 days', from: '-7d' },
  { label: 'Last 30 days', from: '-30d' },
  { label: 'Last 12 weeks', from: '-12w' },
  { label: 'Last 6 months', from: '-6M' },
];

export function formatTime(iso: string | undefined, timeZone?: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { timeZone, year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

const RELATIVE_BOUND = /^-(\d+)([smhdwM])$/;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * A range bound as an instant (ISO): `now`, relative (`-24h`, `-2w`, `-1M` a calendar month back) or
 * already absolute; undefined when it cannot be read. For forms that need fixed instants (a void).
 */
export function instantOf(bound: string, now: number = Date.now()): string | undefined {
  if (bound === 'now') return new Date(now).toISOString();
  const relative = RELATIVE_BOUND.exec(bound);
  if (relative) {
    const amount = Number(relative[1]);
    const unit = relative[2]!;
    if (unit !== 'M') return new Date(now - amount * UNIT_MS[unit]!).toISOString();
    const date = new Date(now);
    date.setUTCMonth(date.getUTCMonth() - amount);
    return date.toISOString();
  }
  const parsed = Date.parse(bound);
  return Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString();
}
