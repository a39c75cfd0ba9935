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
