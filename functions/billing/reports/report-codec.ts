import { promisify } from 'node:util';
import { gunzipSync, gzip, gzipSync } from 'node:zlib';
import { copyJson, sameJson } from './json-values';
import { decodeRowTable, encodeRowTable } from './row-table';
import { ValidationError } from '../../shared/errors';
import { withFields } from './object-copy';
import { BillingReport } from '../../../schemas/billing/report';
import { type OutcomeEntry, SHARD_GZIP_BYTES, SHARD_JSON_BYTES, reportKeyOf } from './report-keys';
import type { CommitOutcomesRequest, WindowReports } from './report-types';

/**
 * The stored form of a window's reports and their delivery outcomes, without I/O (report-store.ts
 * does the DynamoDB side). Both are gzip JSON in one format (FORMAT_VERSION):
 *
 *   shard    {"v":1,"reports":<row table>}
 *   overlay  {"v":1,"keys":[…],"set":<row table>,"other":[[key, entry], …]}
 *            the i-th row of `set` holds the fields set on keys[i]; `other` holds the rest as
 *            OutcomeEntry objects ({set, unset} or {replacement}).
 *
 * A row table (shared/row-table.ts) stores the values a window's reports share once, and columns
 * that take a few forms (REPEATED_FIELDS) as references to them. Two more savings, undone when read:
 * a channel's provider_requests equal to its report's own (webhook meters keep each record in both)
 * are left out; and a request record of the report's current version stores its job_id (the
 * report's idempotency_key) as 0. A delivery's records then differ only by batch, so a window's
 * outcome overlay is a few bytes per report. docs/billing.md has the measurements.
 */

/** The version of the one stored format; a reader refuses any other (nothing older was ever released). */
export const FORMAT_VERSION = 1;

export function groupFrom(header: Record<string, unknown>, items: readonly Record<string, unknown>[]): WindowReports {
  const generation = String(header['generation']);
  const shardItems = items
    .filter((item) => item['generation'] === generation && String(item['sk']).includes('#S#'))
    .sort((a, b) => (String(a['sk']) < String(b['sk']) ? -1 : 1));
  const expected = Number(header['shards']);
  // A header is written only after all its shards, so a missing shard means a bug or a lost write: fail loudly.
  if (shardItems.length !== expected) throw new Error(`report group ${String(header['sk'])} has ${shardItems.length} of ${expected} shards`);
  const shardReports = shardItems.flatMap((item) => unpackShard(item['reports_gz']));
  const base = new Map(shardReports.map((report) => [reportKeyOf(report), report]));
  const overlay = header['outcomes_gz'] === undefined ? [] : unpackOverlay(header['outcomes_gz']);
  const changed = new Map(overlay.map(([key, entry]) => [key, applyOutcome(base.get(key), entry)]));
  const group: WindowReports = {
    meterId: String(header['meter_id']),
    window: { start: new Date(String(header['window_start'])), end: new Date(String(header['window_end'])) },
    revision: Number(header['revision']),
    generation,
    shards: expected,
    evaluatedAt: new Date(String(header['evaluated_at'])),
    reports: changed.size === 0 ? shardReports : shardReports.map((report) => changed.get(reportKeyOf(report)) ?? report),
    storedCopies: base,
  };
  // An overlay names reports of its own shards only; anything else is a bug or a lost write: fail loudly.
  for (const key of changed.keys())
    if (!base.has(key)) throw new Error(`report group ${String(header['sk'])} has an outcome for ${key}, which is not in its shards`);
  return group;
}

/** Reports in report-key order (keys computed once; the run hands them over sorted already, so usually a plain copy). */
export function sortedByKey(reports: readonly BillingReport[]): BillingReport[] {
  const keyed = reports.map((report) => ({ key: reportKeyOf(report), report }));
  let sorted = true;
  for (let i = 1; i < keyed.length && sorted; i += 1) sorted = keyed[i - 1]!.key <= keyed[i]!.key;
  if (!sorted) keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((entry) => entry.report);
}

/** A report of an outcome commit: `report` after delivery, or `report` with the fields `set` (that copy made only if needed). */
export interface OutcomeEntryOfReport {
  readonly key: string;
  readonly report: BillingReport;
  readonly set?: Readonly<Record<string, unknown>>;
}

export function outcomeEntries(request: CommitOutcomesRequest): OutcomeEntryOfReport[] {
  if ('delivered' in request) {
    const { reports, outcomes } = request.delivered;
    return reports.map((report) => {
      const outcome = outcomes.get(report);
      if (outcome === undefined) return { key: reportKeyOf(report), report };
      return 'set' in outcome ? { key: reportKeyOf(report), report, set: outcome.set } : { key: reportKeyOf(outcome.replacement), report: outcome.replacement };
    });
  }
  return request.reports.map((report) => ({ key: reportKeyOf(report), report }));
}

export function sortedEntries(entries: OutcomeEntryOfReport[]): OutcomeEntryOfReport[] {
  let sorted = true;
  for (let i = 1; i < entries.length && sorted; i += 1) sorted = entries[i - 1]!.key <= entries[i]!.key;
  return sorted ? entries : entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export const reportAfter = (entry: OutcomeEntryOfReport): BillingReport => (entry.set ? withFields(entry.report, entry.set) : entry.report);

/** A delivery sets `status`: read from what it set, without the delivered copy. */
export function statusAfter(entry: OutcomeEntryOfReport): string {
  const status = entry.set?.['status'];
  return typeof status === 'string' ? status : entry.report.status;
}

/**
 * The overlay of `reports` over their shard copies: an entry per report that is not its shard copy,
 * holding only the fields that changed. undefined when a report is not in the shards (the set of
 * reports changed: only a full commit can record that).
 */
export function outcomeOverlay(base: ReadonlyMap<string, BillingReport>, entries: readonly OutcomeEntryOfReport[]): Uint8Array | undefined {
  if (entries.length !== base.size) return undefined;
  // Entries that only set fields go in a row table (keys[i] ↔ sets[i]); the others as OutcomeEntry objects.
  const keys: string[] = [];
  const sets: Record<string, unknown>[] = [];
  /** The idempotency_key of each set's report (its request records name it). */
  const ownKeys: string[] = [];
  const others: string[] = [];
  const addSet = (key: string, set: Record<string, unknown>, shard: BillingReport) => {
    keys.push(key);
    sets.push(set);
    ownKeys.push(shard.idempotency_key);
  };
  for (const entry of entries) {
    const { key } = entry;
    const shard = base.get(key);
    if (!shard) return undefined;
    if (entry.set !== undefined && entry.report === shard) {
      // The delivery names what it set on this very shard copy: only those fields can differ, and
      // new ones come last in the order set, as the merge puts them.
      // Usually every field it set changed (a first delivery): then `set` itself is the entry.
      let allChanged = true;
      let fields = 0;
      for (const field in entry.set) {
        const value = entry.set[field];
        fields += 1;
        if (value === undefined || (shard as Record<string, unknown>)[field] === value) {
          allChanged = false;
          break;
        }
      }
      if (allChanged) {
        if (fields > 0) addSet(key, entry.set as Record<string, unknown>, shard);
        continue;
      }
      let quick: Record<string, unknown> | undefined;
      for (const field in entry.set) {
        const value = entry.set[field];
        if (value !== undefined && (shard as Record<string, unknown>)[field] !== value) (quick ??= {})[field] = value;
      }
      if (quick) addSet(key, quick, shard);
      continue;
    }
    const report = reportAfter(entry);
    if (shard === report) continue;
    // A delivery spreads the report, so unchanged fields are the shard's own values: compared by
    // reference (an equal copy is merely stored again, which is harmless).
    const record = report as Record<string, unknown>;
    const shardRecord = shard as Record<string, unknown>;
    const allKeys = Object.keys(record);
    const shardKeys = Object.keys(shardRecord);
    // The usual case, in one pass: the report's keys begin with the shard's, in order, none undefined.
    // Then nothing is unset and the merge keeps the order; only the changed fields are stored.
    let prefix = allKeys.length >= shardKeys.length;
    let quick: Record<string, unknown> | undefined;
    for (let i = 0; i < allKeys.length && prefix; i += 1) {
      const field = allKeys[i]!;
      const value = record[field];
      if (value === undefined || (i < shardKeys.length && shardKeys[i] !== field)) prefix = false;
      else if (shardRecord[field] !== value) (quick ??= {})[field] = value;
    }
    if (prefix) {
      if (quick) addSet(key, quick, shard);
      continue;
    }
    const set: Record<string, unknown> = {};
    let changed = false;
    // A field set to undefined is absent once stored as JSON: it counts as removed.
    const present = (field: string) => record[field] !== undefined;
    const reportKeys = allKeys.filter(present);
    for (const field of reportKeys) {
      const value = record[field];
      if (shardRecord[field] !== value) {
        set[field] = value;
        changed = true;
      }
    }
    const unset = shardKeys.filter((field) => !present(field));
    if (!changed && unset.length === 0) continue;
    // Readers must rebuild the very object a full rewrite would store, key order included: the merge
    // yields the shard's keys (less the unset ones) then the new keys in the report's order.
    const kept = unset.length === 0 ? shardKeys : shardKeys.filter(present);
    let sameOrder = kept.length <= reportKeys.length;
    for (let i = 0; i < kept.length && sameOrder; i += 1) sameOrder = kept[i] === reportKeys[i];
    for (let i = kept.length; i < reportKeys.length && sameOrder; i += 1) sameOrder = !(reportKeys[i]! in shard);
    if (sameOrder && unset.length === 0) addSet(key, set, shard);
    else others.push(JSON.stringify([key, sameOrder ? { set, unset } : { replacement: report }]));
  }
  const json = encodeRowTable(sets, {
    wrap: { prefix: `{"v":${FORMAT_VERSION},"keys":${JSON.stringify(keys)},"other":[${others.join(',')}],"set":`, suffix: '}' },
    encodeValues: storedValues((_set, i) => ownKeys[i]!),
    repeated: REPEATED_FIELDS,
  });
  return gzipSync(json, { level: 1 });
}

export function applyOutcome(shard: BillingReport | undefined, entry: OutcomeEntry): BillingReport {
  if ('replacement' in entry) return entry.replacement;
  if (!shard) throw new Error('an outcome overlay names a report missing from its shards');
  const merged: Record<string, unknown> = { ...shard, ...entry.set };
  for (const field of entry.unset ?? []) delete merged[field];
  // Request records of the report's current version are stored with job_id 0.
  restoreOwnKeys(merged, shard.idempotency_key);
  return merged as BillingReport;
}

export function unpackOverlay(value: unknown): [string, OutcomeEntry][] {
  const table = unzipJson(value) as { v?: unknown; keys?: unknown; set?: unknown; other?: unknown };
  if (table.v !== FORMAT_VERSION || !Array.isArray(table.keys) || !Array.isArray(table.other)) throw new Error('an outcome overlay has an unknown format');
  const sets = decodeRowTable(table.set, restoreChannelRecords);
  if (sets.length !== table.keys.length) throw new Error(`an outcome overlay has ${table.keys.length} keys for ${sets.length} entries`);
  const keys = table.keys as string[];
  return [...sets.map((set, i): [string, OutcomeEntry] => [keys[i]!, { set }]), ...(table.other as [string, OutcomeEntry][])];
}

/**
 * Reports packed into gzip JSON shards, each under the item limit whatever the reports hold.
 * Compressed on libuv's thread pool rather than the event loop: a run packs millions of reports,
 * and its event loop is the busiest part of the run (docs/billing.md, Speed).
 */
export async function packShards(reports: readonly BillingReport[]): Promise<Uint8Array[]> {
  const encode = (slice: readonly BillingReport[]) =>
    encodeRowTable(slice, {
      wrap: { prefix: `{"v":${FORMAT_VERSION},"reports":`, suffix: '}' },
      encodeValues: storedValues((report) => report['idempotency_key']),
      repeated: REPEATED_FIELDS,
    });
  const pack = async (slice: readonly BillingReport[], json = encode(slice)): Promise<Uint8Array[]> => {
    const gz = await gzipOffLoop(json, { level: 1 });
    if (gz.byteLength <= SHARD_GZIP_BYTES || slice.length <= 1) return [gz];
    const middle = Math.ceil(slice.length / 2);
    return [...(await pack(slice.slice(0, middle))), ...(await pack(slice.slice(middle)))];
  };
  const whole = encode(reports);
  const parts = Math.ceil(whole.byteLength / SHARD_JSON_BYTES);
  if (parts <= 1) return pack(reports, whole);
  const size = Math.ceil(reports.length / parts);
  const shards: Uint8Array[] = [];
  for (let i = 0; i < reports.length; i += size) shards.push(...(await pack(reports.slice(i, i + size))));
  return shards;
}

const gzipOffLoop = promisify(gzip);

export function unpackShard(value: unknown): BillingReport[] {
  const table = unzipJson(value) as { v?: unknown; reports?: unknown };
  if (table.v !== FORMAT_VERSION) throw new Error('a report shard has an unknown format');
  return decodeRowTable(table.reports, (report) => {
    restoreChannelRecords(report);
    restoreOwnKeys(report, report['idempotency_key']);
  }) as unknown as BillingReport[];
}

export function unzipJson(value: unknown): unknown {
  const bytes = value instanceof Uint8Array ? value : Buffer.from(String(value), 'base64');
  return JSON.parse(gunzipSync(bytes).toString('utf8'));
}

/**
 * How a value is stored in a row: a report's (or overlay entry's) channel_requests whose every
 * channel holds exactly the report's provider_requests, as its last key, leave them out (webhook
 * meters record each request in both; restoreChannelRecords puts copies back); and request
 * records of the report's own current key carry job_id 0 (restoreOwnKeys puts the key back).
 */
export function storedValue(key: string, value: unknown, object: Record<string, unknown>, ownKey: unknown): unknown {
  if (key === 'provider_requests') return withOwnKeyMarked(value, ownKey);
  if (key !== 'channel_requests' || !Array.isArray(value)) return value;
  const records = object['provider_requests'];
  if (!Array.isArray(records)) return value;
  for (const entry of value) if (!holdsRecords(entry, records)) return value;
  return value.map((entry: Record<string, unknown>) => {
    const stored: Record<string, unknown> = {};
    for (const field of Object.keys(entry)) if (field !== 'provider_requests') stored[field] = entry[field];
    return stored;
  });
}

/** The row-table encoders of the two fields storedValue shortens; `ownKeyOf` names an object's own idempotency key. */
function storedValues(
  ownKeyOf: (object: Record<string, unknown>, index: number) => unknown,
): Record<string, (value: unknown, object: Record<string, unknown>, index: number) => unknown> {
  return {
    provider_requests: (value, object, index) => storedValue('provider_requests', value, object, ownKeyOf(object, index)),
    channel_requests: (value, object, index) => storedValue('channel_requests', value, object, ownKeyOf(object, index)),
  };
}

/** A channel entry whose provider_requests (its last key) are equal, record by record, to `records`. */
export function holdsRecords(entry: unknown, records: readonly unknown[]): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const fields = Object.keys(entry);
  if (fields[fields.length - 1] !== 'provider_requests') return false;
  const own = (entry as Record<string, unknown>)['provider_requests'];
  return sameJson(own, records);
}

/** Values that take a few distinct forms across a window's reports (a delivery's records differ by batch only). */
export const REPEATED_FIELDS: ReadonlySet<string> = new Set([
  'status',
  'provider_requests',
  'channel_requests',
  'last_success_time',
  'error_code',
  'error_message',
  'updated_at',
]);

/** Request records whose job_id is `ownKey` (the report's current idempotency key), stored with job_id 0. */
export function withOwnKeyMarked(records: unknown, ownKey: unknown): unknown {
  if (!Array.isArray(records) || typeof ownKey !== 'string' || !records.some((record) => isRecordOf(record, ownKey))) return records;
  return records.map((record: unknown) => (isRecordOf(record, ownKey) ? { ...(record as Record<string, unknown>), job_id: 0 } : record));
}

export const isRecordOf = (record: unknown, key: string) =>
  typeof record === 'object' && record !== null && (record as Record<string, unknown>)['job_id'] === key;

/** Puts the report's idempotency key back into records stored with job_id 0 (its own and its channels'). */
export function restoreOwnKeys(report: Record<string, unknown>, ownKey: unknown): void {
  const restore = (records: unknown) => {
    if (!Array.isArray(records)) return;
    for (const record of records) {
      if (typeof record === 'object' && record !== null && (record as Record<string, unknown>)['job_id'] === 0) {
        if (typeof ownKey !== 'string') throw new Error('a stored request record refers to the idempotency_key of a report that has none');
        (record as Record<string, unknown>)['job_id'] = ownKey;
      }
    }
  };
  restore(report['provider_requests']);
  const channels = report['channel_requests'];
  if (Array.isArray(channels))
    for (const entry of channels) if (typeof entry === 'object' && entry !== null) restore((entry as Record<string, unknown>)['provider_requests']);
}

export function restoreChannelRecords(object: Record<string, unknown>): void {
  const channels = object['channel_requests'];
  if (!Array.isArray(channels)) return;
  for (const entry of channels as Record<string, unknown>[]) {
    if (typeof entry !== 'object' || entry === null || 'provider_requests' in entry) continue;
    const records = object['provider_requests'];
    if (!Array.isArray(records)) throw new Error('a stored channel entry refers to provider_requests its report does not have');
    entry['provider_requests'] = copyJson(records);
  }
}

export const encodeCursor = (sk: string) => Buffer.from(sk, 'utf8').toString('base64url');

export function decodeCursor(cursor: string): string {
  const sk = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!sk.startsWith('W#'))
    throw new ValidationError('cursor is not a billing report cursor', [{ field: 'cursor', reason: 'is not a cursor this list returned' }]);
  return sk;
}

/** Parses stored reports strictly (for tests and readers that want validation). */
export const parseStoredReport = (value: unknown): BillingReport => BillingReport.parse(value);
