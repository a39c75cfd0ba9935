import type { EventVoid } from '../api/event-voids';

/** The audit log's columns, in the order a download lists them. */
const COLUMNS: readonly (keyof EventVoid)[] = [
  'id',
  'created_at',
  'created_by',
  'reason',
  'status',
  'from',
  'to',
  'event_ids',
  'query',
  'matched',
  'voided',
  'billing_hours',
  'replacement',
  'finished_at',
  'error',
];

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break; lists and queries as JSON. */
function field(value: EventVoid[keyof EventVoid]): string {
  const text = value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The audit log as CSV, a header line then one line per void. */
export function voidLogCsv(voids: readonly EventVoid[]): string {
  const lines = [COLUMNS.join(','), ...voids.map((entry) => COLUMNS.map((column) => field(entry[column])).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}
