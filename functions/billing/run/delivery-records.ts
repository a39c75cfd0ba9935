import type { BillingReport } from '../../../schemas/billing/report';
import type { ProviderRequestRecord } from '../providers/provider-port';

/** Request records kept per report and destination: the newest, enough to explain a delivery. */
export const MAX_RECORDS = 50;

/** What a report's request records say about its delivery: unacknowledged quantities, refusals, a key's state. */

/** Version 1 has no earlier version to carry. */
export const NOTHING_CARRIED: ReturnType<typeof unacknowledgedSince> = { acknowledgedQuantity: undefined, amounts: [] };

/** The report's window as dates: parsed once per window, not per report (reports of a group share it). */
export let lastWindow: { start: string; end: string; window: { start: Date; end: Date } } | undefined;
export function windowOf(report: BillingReport): { start: Date; end: Date } {
  if (lastWindow?.start !== report.usage_start_time || lastWindow.end !== report.usage_end_time) {
    lastWindow = {
      start: report.usage_start_time,
      end: report.usage_end_time,
      window: { start: new Date(report.usage_start_time), end: new Date(report.usage_end_time) },
    };
  }
  return lastWindow.window;
}

/**
 * What a destination never acknowledged before the current version: earlier versions it did not
 * get (refused with a 4xx, not configured, or answered with errors only) are carried by the current
 * one, so its previous quantity is the last version the destination has and its amount includes the
 * carried versions' amounts. An UNCONFIRMED version (an attempt timed out or lost its connection and
 * nothing answered since) is not carried: the provider may have it, and carrying it could
 * double-bill; such a report ends `failed` / `delivery_unconfirmed` for an operator instead (see finish).
 * acknowledgedQuantity is undefined when nothing is carried (the previous version was acknowledged).
 */
export function unacknowledgedSince(
  report: BillingReport,
  keyOf: (version: number) => string,
): { acknowledgedQuantity: number | undefined; amounts: (string | undefined)[] } {
  const amounts: (string | undefined)[] = [];
  const earlier = report.versions.filter((v) => v.report_version < report.report_version);
  for (let i = earlier.length - 1; i >= 0; i -= 1) {
    const entry = earlier[i]!;
    if (keyState(report.provider_requests, keyOf(entry.report_version)) !== 'not_delivered') {
      return { acknowledgedQuantity: amounts.length === 0 ? undefined : entry.meter_usage, amounts };
    }
    amounts.push(entry.amount_exact);
  }
  return { acknowledgedQuantity: amounts.length === 0 ? undefined : 0, amounts };
}

/** A request that may have reached the provider without an answer: timeout or connection error. */
export const isUnknownOutcome = (r: ProviderRequestRecord) =>
  !r.success && r.status_code === 0 && (r.error_code === 'timeout' || r.error_code === 'network_error');

/** Codes of requests refused before anything was sent (status_code 0, yet a definite "not delivered"). */
export const NOT_SENT_CODES = new Set(['not_configured', 'forbidden_target']);

/** A final "no" to a request: a 4xx other than 408/429, or a request that was never sent. */
export const isRefusal = (r: ProviderRequestRecord) =>
  !r.success &&
  ((r.status_code >= 400 && r.status_code < 500 && r.status_code !== 408 && r.status_code !== 429) ||
    (r.status_code === 0 && NOT_SENT_CODES.has(r.error_code ?? '')));

/**
 * What the records say about one key: `delivered` (some request succeeded), `not_delivered` (every
 * request was answered with an error or never sent, or the last one was a final refusal — a
 * deduplicating provider answers a repeat of something it has with success), `unconfirmed` (some
 * request may have arrived and nothing answered since), `none` (never sent).
 */
export function keyState(records: readonly ProviderRequestRecord[], key: string): 'delivered' | 'not_delivered' | 'unconfirmed' | 'none' {
  // One pass without copying: this runs for every report and destination of every run.
  let last: ProviderRequestRecord | undefined;
  let unknown = false;
  for (const record of records) {
    if (record.job_id !== key) continue;
    if (record.success) return 'delivered';
    last = record;
    unknown ||= isUnknownOutcome(record);
  }
  if (!last) return 'none';
  if (isRefusal(last)) return 'not_delivered';
  return unknown ? 'unconfirmed' : 'not_delivered';
}

/** The records with `added` after them, the newest MAX_RECORDS kept. */
export function appendRecords(records: readonly ProviderRequestRecord[], added: readonly ProviderRequestRecord[]): ProviderRequestRecord[] {
  const all = records.length === 0 ? [...added] : [...records, ...added];
  return all.length > MAX_RECORDS ? all.slice(-MAX_RECORDS) : all;
}
