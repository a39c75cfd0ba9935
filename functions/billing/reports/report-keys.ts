import type { BillingReport } from '../../../schemas/billing/report';
import { companyReportKey, subscriptionReportKey } from './report-id';
import type { ReportTenant } from './report-types';

/** Where reports live in the billing table (partitions, sort keys) and the size limits of what is stored there. */

/** Uncompressed JSON per shard before gzip; a shard is split further if its gzip is still too big. */
export const SHARD_JSON_BYTES = 2_000_000;
export const SHARD_GZIP_BYTES = 340_000;
/** Reporting windows are at most 31 days long: a window starting this long before `from` may still overlap it. */
export const MAX_WINDOW_MS = 31 * 86_400_000;
export const OPEN_STATUSES = new Set(['pending', 'retrying']);
/** Largest outcome overlay kept on a header (DynamoDB items are at most 400 KB); larger → a full rewrite. */
export const OVERLAY_GZIP_BYTES = 300_000;

/**
 * One report's change against its shard copy: the top-level fields `set` (new or changed) and
 * `unset` (removed); or the whole report as its `replacement` (when a merge could not reproduce it
 * exactly, e.g. a different key order).
 */
export type OutcomeEntry = { set: Record<string, unknown>; unset?: string[] } | { replacement: BillingReport };

export const reportsPartition = (t: ReportTenant) => `REPORTS#${t.orgId}#${t.appId}`;
export const openReportsPartition = (t: ReportTenant) => `REPORTS_OPEN#${t.orgId}#${t.appId}`;
export const groupPrefix = (windowStart: Date, meterId: string) => `W#${windowStart.toISOString()}#${encodeURIComponent(meterId)}#`;
export const headerSortKey = (windowStart: Date, meterId: string) => `${groupPrefix(windowStart, meterId)}H`;
export const shardSortKey = (windowStart: Date, meterId: string, generation: string, n: number) =>
  `${groupPrefix(windowStart, meterId)}S#${generation}#${String(n).padStart(4, '0')}`;
export const openSortKey = (meterId: string, windowStart: Date) => `${encodeURIComponent(meterId)}#${windowStart.toISOString()}`;

/** The key of a report inside its group: `S:<subscription>` or, unattributed without one, `C:<company>`. */
export function reportKeyOf(report: Pick<BillingReport, 'subscription_id' | 'company_id'>): string {
  return report.subscription_id !== null ? subscriptionReportKey(report.subscription_id) : companyReportKey(report.company_id ?? '');
}
