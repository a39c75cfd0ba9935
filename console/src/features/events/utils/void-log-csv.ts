import { csvText } from '../../../lib/csv';
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

/** One field: lists and queries as JSON, nothing for null. */
const field = (value: EventVoid[keyof EventVoid]): string => (value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** The audit log as CSV, a header line then one line per void. */
export function voidLogCsv(voids: readonly EventVoid[]): string {
  return csvText([COLUMNS, ...voids.map((entry) => COLUMNS.map((column) => field(entry[column])))]);
}
