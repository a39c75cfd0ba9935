import { randomBytes } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapWithConcurrency } from '../../shared/concurrency';
import { copyJson, sameJson } from '../../shared/json-values';
import { decodeRowTable, encodeRowTable } from '../../shared/row-table';
import { ValidationError } from '../../shared/errors';
import { withFields } from '../../shared/object-copy';
import { BillingReport } from '../../../schemas/billing/report';
import type { UsageWindow } from '../schedule/reporting-period';
import { companyReportKey, parseReportId, subscriptionReportKey } from './report-id';

/**
 * Billing reports in the billing table, grouped per (meter, window) — one item per report would be
 * far too many writes (a month of hourly windows × thousands of subscriptions × meters).
 *
 *   pk REPORTS#<org>#<app>  sk W#<window start ISO>#<meter>#H                   header: generation, shards, revision, evaluated_at, counts
 *                           sk W#<window start ISO>#<meter>#S#<generation>#<n>   gzip JSON of reports (< 350 KB each)
 *   pk REPORTS_OPEN#<org>#<app>  sk <meter>#<window start ISO>               present while the group has pending/retrying reports
 *
 * A commit writes the new generation's shards first, then ONE TransactWrite puts the header
 * (conditioned on the revision it was computed from) together with whatever the caller commits with
 * it (totals, cursor). Readers follow the header, so they see the whole previous generation or the
 * whole new one, never a mix; shards of a generation whose header write failed are never read.
 * ISO window starts sort by time, so listing a time range is one Query.
 *
 * Delivery outcomes (status, provider_requests, balances, … of the reports a run delivered) are not
 * written as a new generation of shards: they are an overlay on the header (`outcomes_gz`: gzip JSON
 * of, per changed report, the top-level fields that differ from the shard's copy), committed by ONE
 * conditioned header put. Readers merge it, so they see exactly the reports a full rewrite would have
 * stored. The next full commit (a correction) writes merged reports to new shards and drops the overlay.
 * Headers written before the overlay existed have no `outcomes_gz` and are read as they are.
 *
 * Format of shards and overlays (readers take all three):
 *   v1  shard: a JSON array of reports; overlay: a JSON array of [report key, entry].
 *   v2  shard: {"v":2,"reports":<row table>}; overlay: {"v":2,"keys":[…],"set":<row table>,
 *       "other":[[key, entry], …]} where the i-th row of `set` is the `s` of keys[i]. A row table
 *       (shared/row-table.ts) stores the values a window's reports share once; and a channel's
 *       provider_requests equal to its report's own (webhook meters keep each record in both) are
 *       left out and copied back when read. About a third of the bytes, and faster to write.
 *   v3  (written now) as v2, and: a request record of the report's current version stores `job_id`
 *       as 0 (it is the report's idempotency_key), and request records, statuses and timestamps are
 *       row-table `repeated` columns. A delivery's records then differ only by batch, so a window's
 *       outcome overlay is a few bytes per report instead of a few hundred.
 */

export interface ReportTenant {
  readonly orgId: string;
  readonly appId: string;
}

/** One (meter, window) group as committed. */
export interface WindowReports {
  readonly meterId: string;
  readonly window: UsageWindow;
  /** Incremented by every commit; commits are conditioned on it. */
  readonly revision: number;
  readonly generation: string;
  readonly shards: number;
  /** When the usage of this window was last computed (late events indexed after it trigger a re-evaluation). */
  readonly evaluatedAt: Date;
  /** Sorted by report key. */
  readonly reports: readonly BillingReport[];
}

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

export interface CommitWindowRequest {
  readonly tenant: ReportTenant;
  readonly meterId: string;
  readonly window: UsageWindow;
  readonly reports: readonly BillingReport[];
  /** The group this commit replaces (its revision is the condition); undefined: the group must not exist yet. */
  readonly previous: WindowReports | undefined;
  readonly evaluatedAt: Date;
  /**
   * Written in the same transaction as the header (at most 95 items). A function is called while the
   * shards are being written (e.g. to write other shards the items point at) and awaited before the commit.
   */
  readonly extraItems?: readonly TransactItem[] | (() => Promise<readonly TransactItem[]>);
  /** Deletes of the replaced generation are handed here instead of awaited (callers await them later). */
  readonly background?: (work: Promise<unknown>) => void;
  readonly now: Date;
}

/**
 * What a delivery did to one report it was given: it set fields on it (in order: the delivered
 * report is the report with these set, new keys last), or it replaced it whole.
 */
export type ReportOutcome = { readonly set: Readonly<Record<string, unknown>> } | { readonly replacement: BillingReport };

/**
 * A delivery over a group's reports, told without a delivered copy of each report: the run records
 * outcomes from this, so the copies (a kilobyte each, alive while a window delivers) are never made.
 */
export interface DeliveredReports {
  /** The reports the delivery was given: the group's own, or copies of them with balances drawn. */
  readonly reports: readonly BillingReport[];
  /** What it did to each one it changed. */
  readonly outcomes: ReadonlyMap<BillingReport, ReportOutcome>;
}

/** A report after delivery: itself, with the fields delivery set, or its replacement. */
export function deliveredReport(report: BillingReport, outcome: ReportOutcome | undefined): BillingReport {
  if (outcome === undefined) return report;
  return 'replacement' in outcome ? outcome.replacement : withFields(report, outcome.set);
}

interface OutcomesRequestBase {
  readonly tenant: ReportTenant;
  /** The group as read or committed by this store (its revision is the condition). */
  readonly previous: WindowReports;
  /** Old generations replaced by a fallback full rewrite are deleted here (see CommitWindowRequest). */
  readonly background?: (work: Promise<unknown>) => void;
  readonly now: Date;
}

export type CommitOutcomesRequest = OutcomesRequestBase & (
  /** The group's reports after delivery (the same report objects where nothing changed). */
  | { readonly reports: readonly BillingReport[] }
  /** What delivery set on the reports (spares a copy of each, and comparing every field with the shard's). */
  | { readonly delivered: DeliveredReports }
);

/** A group's outcome commit, encoded (ReportStore.prepareOutcomes). */
export type PreparedOutcomes =
  /** The header put with the overlay, and the open marker; the group after the commit when it was kept. */
  | { readonly kind: 'overlay'; readonly items: TransactItem[]; readonly bytes: number; readonly group?: WindowReports; readonly base?: ReadonlyMap<string, BillingReport> }
  /** No overlay (a group this store did not hand out, or one too big for the header): new shards. */
  | { readonly kind: 'rewrite'; readonly request: OutcomesRequestBase; readonly reports: BillingReport[] };

export interface ListWindowsRequest {
  /** Windows overlapping [from, to). */
  readonly from: Date;
  readonly to: Date;
  readonly meterId?: string;
  /** Newest window first unless false. */
  readonly newestFirst?: boolean;
  /** Stop after this many groups (default 50); `cursor` continues. */
  readonly maxWindows?: number;
  readonly cursor?: string;
}

/** Uncompressed JSON per shard before gzip; a shard is split further if its gzip is still too big. */
const SHARD_JSON_BYTES = 2_000_000;
const SHARD_GZIP_BYTES = 340_000;
/** Reporting windows are at most 31 days long: a window starting this long before `from` may still overlap it. */
const MAX_WINDOW_MS = 31 * 86_400_000;
const OPEN_STATUSES = new Set(['pending', 'retrying']);
/** Largest outcome overlay kept on a header (DynamoDB items are at most 400 KB); larger → a full rewrite. */
const OVERLAY_GZIP_BYTES = 300_000;

/**
 * One report's change against its shard copy: `s` = top-level fields set (new or changed), `u` =
 * fields removed; `r` = the whole report instead (when a merge could not reproduce it exactly, e.g.
 * a different key order).
 */
type OutcomeEntry = { s: Record<string, unknown>; u?: string[] } | { r: BillingReport };

/** The shard copies behind each group this store handed out, by report key (the base of its overlay). */
const shardBase = new WeakMap<WindowReports, ReadonlyMap<string, BillingReport>>();

export const reportsPartition = (t: ReportTenant) => `REPORTS#${t.orgId}#${t.appId}`;
export const openReportsPartition = (t: ReportTenant) => `REPORTS_OPEN#${t.orgId}#${t.appId}`;
const groupPrefix = (windowStart: Date, meterId: string) => `W#${windowStart.toISOString()}#${encodeURIComponent(meterId)}#`;
const headerSortKey = (windowStart: Date, meterId: string) => `${groupPrefix(windowStart, meterId)}H`;
const shardSortKey = (windowStart: Date, meterId: string, generation: string, n: number) => `${groupPrefix(windowStart, meterId)}S#${generation}#${String(n).padStart(4, '0')}`;
const openSortKey = (meterId: string, windowStart: Date) => `${encodeURIComponent(meterId)}#${windowStart.toISOString()}`;

/** The key of a report inside its group: `S:<subscription>` or, unattributed without one, `C:<company>`. */
export function reportKeyOf(report: Pick<BillingReport, 'subscription_id' | 'company_id'>): string {
  return report.subscription_id !== null ? subscriptionReportKey(report.subscription_id) : companyReportKey(report.company_id ?? '');
}

export class ReportStore {
  constructor(private readonly documents: DynamoDBDocumentClient, private readonly tableName: string) {}

  /** One group, or undefined when the window was never committed for the meter. */
  async readWindow(tenant: ReportTenant, meterId: string, windowStart: Date): Promise<WindowReports | undefined> {
    const items = await this.queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': reportsPartition(tenant), ':prefix': groupPrefix(windowStart, meterId) },
      ConsistentRead: true,
    });
    const header = items.find((item) => String(item['sk']).endsWith('#H'));
    return header ? groupFrom(header, items) : undefined;
  }

  /** A report by its `_id` (report-id.ts); undefined for unknown or malformed ids. */
  async getReport(tenant: ReportTenant, id: string): Promise<BillingReport | undefined> {
    const locator = parseReportId(id);
    if (!locator) return undefined;
    const group = await this.readWindow(tenant, locator.meterId, locator.windowStart);
    return group?.reports.find((report) => reportKeyOf(report) === locator.reportKey);
  }

  /** Groups whose window overlaps [from, to), newest first by default, paged by an opaque cursor. */
  async listWindows(tenant: ReportTenant, request: ListWindowsRequest): Promise<{ windows: WindowReports[]; cursor?: string }> {
    const newestFirst = request.newestFirst ?? true;
    const maxWindows = request.maxWindows ?? 50;
    const lower = `W#${new Date(request.from.getTime() - MAX_WINDOW_MS).toISOString()}`;
    // Windows starting at `to` do not overlap [from, to); '#' sorts before every ISO digit continuation.
    const upper = `W#${request.to.toISOString()}`;
    const windows: WindowReports[] = [];
    let startKey: Record<string, unknown> | undefined = request.cursor ? { pk: reportsPartition(tenant), sk: decodeCursor(request.cursor) } : undefined;
    let group: { prefix: string; items: Record<string, unknown>[] } | undefined;
    let lastCompleteSk: string | undefined;
    const flush = () => {
      if (!group) return;
      const header = group.items.find((item) => String(item['sk']).endsWith('#H'));
      const built = header ? groupFrom(header, group.items) : undefined;
      if (built && built.window.start < request.to && built.window.end > request.from) windows.push(built);
      lastCompleteSk = String(group.items[group.items.length - 1]!['sk']);
      group = undefined;
    };
    do {
      const page = await this.documents.send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lower AND :upper',
        ...(request.meterId !== undefined ? { FilterExpression: 'meter_id = :meter' } : {}),
        ExpressionAttributeValues: { ':pk': reportsPartition(tenant), ':lower': lower, ':upper': upper, ...(request.meterId !== undefined ? { ':meter': request.meterId } : {}) },
        ScanIndexForward: !newestFirst,
        ExclusiveStartKey: startKey,
      }));
      for (const item of page.Items ?? []) {
        const sk = String(item['sk']);
        const itemPrefix = sk.endsWith('#H') ? sk.slice(0, -1) : sk.slice(0, sk.indexOf('#S#') + 1);
        if (group && group.prefix !== itemPrefix) {
          flush();
          if (windows.length >= maxWindows) return { windows, cursor: encodeCursor(lastCompleteSk!) };
        }
        if (!group) group = { prefix: itemPrefix, items: [] };
        group.items.push(item);
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    flush();
    return { windows: windows.slice(0, maxWindows), ...(windows.length > maxWindows && lastCompleteSk ? { cursor: encodeCursor(lastCompleteSk) } : {}) };
  }

  /** Groups that still hold pending or retrying reports (a cheap sparse index, not a scan of the reports). */
  async openWindows(tenant: ReportTenant, meterId: string): Promise<Date[]> {
    const items = await this.queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': openReportsPartition(tenant), ':prefix': `${encodeURIComponent(meterId)}#` },
    });
    return items.map((item) => new Date(String(item['window_start'])));
  }

  /**
   * Commits a group's new content: shards first, then the header and `extraItems` in one transaction.
   * Returns the committed group, or `conflict` when someone else committed the group (or an extra
   * item's condition failed) first.
   */
  async commitWindow(request: CommitWindowRequest): Promise<WindowReports | 'conflict'> {
    const result = await this.commitWindows([request], { ...(request.extraItems ? { extraItems: request.extraItems } : {}), ...(request.background ? { background: request.background } : {}) });
    return result === 'conflict' ? result : result[0]!;
  }

  /**
   * Several groups (e.g. consecutive windows of a meter) committed together: all shards first, then
   * ONE transaction with every header (each conditioned on its revision) and `extraItems`. At most
   * 45 groups (two transaction items each) plus 10 extra items.
   */
  async commitWindows(requests: readonly Omit<CommitWindowRequest, 'extraItems' | 'background'>[], options: Pick<CommitWindowRequest, 'extraItems' | 'background'> = {}): Promise<WindowReports[] | 'conflict'> {
    if (requests.length === 0 || requests.length > 45) throw new RangeError(`commitWindows takes 1 to 45 groups, not ${requests.length}`);
    const prepared: { request: (typeof requests)[number]; reports: BillingReport[]; generation: string; shards: Uint8Array[]; pk: string }[] = [];
    for (const request of requests) {
      // Packing a chunk of windows takes a tenth of a second: between windows, the event loop runs
      // what waits on it (the next windows' queries start, deliveries go on) instead of leaving the
      // search backend and the receivers idle meanwhile.
      if (prepared.length > 0) await setImmediate();
      const reports = sortedByKey(request.reports);
      prepared.push({ request, reports, generation: randomBytes(6).toString('hex'), shards: packShards(reports), pk: reportsPartition(request.tenant) });
    }
    const shardItems = prepared.flatMap(({ request, generation, shards, pk }) =>
      shards.map((gz, n) => ({ pk, sk: shardSortKey(request.window.start, request.meterId, generation, n), meter_id: request.meterId, window_start: request.window.start.toISOString(), generation, reports_gz: gz })));
    const [, extraItems] = await Promise.all([
      this.batchPut(shardItems),
      typeof options.extraItems === 'function' ? options.extraItems() : Promise.resolve(options.extraItems ?? []),
    ]);
    const transactItems: TransactItem[] = prepared.flatMap(({ request, reports, generation, shards }) =>
      this.headerItems({ ...request, generation, shards: shards.length, counts: { reports: reports.length, open: reports.filter((report) => OPEN_STATUSES.has(report.status)).length } }));
    try {
      await this.documents.send(new TransactWriteCommand({ TransactItems: [...transactItems, ...extraItems] }));
    } catch (error) {
      await Promise.all(prepared.map(({ request, generation, shards, pk }) => this.deleteShards(pk, request.window.start, request.meterId, generation, shards.length)));
      if (error instanceof TransactionCanceledException || (error as { name?: string }).name === 'TransactionCanceledException') return 'conflict';
      throw error;
    }
    const committed: WindowReports[] = [];
    for (const { request, reports, generation, shards, pk } of prepared) {
      if (request.previous) {
        const cleanup = this.deleteShards(pk, request.window.start, request.meterId, request.previous.generation, request.previous.shards);
        if (options.background) options.background(cleanup);
        else await cleanup;
      }
      const group: WindowReports = { meterId: request.meterId, window: request.window, revision: (request.previous?.revision ?? 0) + 1, generation, shards: shards.length, evaluatedAt: request.evaluatedAt, reports };
      shardBase.set(group, new Map(reports.map((report) => [reportKeyOf(report), report])));
      committed.push(group);
    }
    return committed;
  }

  /**
   * Records a group's delivery outcomes: ONE transaction puts the header (conditioned on the
   * previous revision) with an overlay of the reports that differ from the shards, and the open
   * marker. The shards are neither rewritten nor deleted. Falls back to a full commit (new shards)
   * when the group was not handed out by this store or the overlay would not fit on the header.
   */
  async commitOutcomes(request: CommitOutcomesRequest): Promise<WindowReports | 'conflict'> {
    return (await this.commitOutcomesMany([request]))[0]!;
  }

  /**
   * Outcomes of several groups: the overlays go in as few transactions as fit (one in the usual
   * case); each group still commits or conflicts on its own revision. Results are in request order.
   */
  async commitOutcomesMany(requests: readonly CommitOutcomesRequest[]): Promise<(WindowReports | 'conflict')[]> {
    // Every group is kept, so no result is the bare 'committed'.
    return (await this.commitPreparedOutcomes(requests.map((request) => this.prepareOutcomes(request)))) as (WindowReports | 'conflict')[];
  }

  /**
   * A group's outcome commit, encoded now (the overlay and the header items, or the decision to
   * rewrite the group when there is no overlay to write): a caller that queues commits then holds a
   * few KB per group instead of every delivered report. With `keepGroup: false` the prepared commit
   * does not hold the delivered reports either, and its result is 'committed' instead of the group.
   */
  prepareOutcomes(request: CommitOutcomesRequest, options: { keepGroup?: boolean } = {}): PreparedOutcomes {
    const { previous } = request;
    const entries = sortedEntries(outcomeEntries(request));
    const base = shardBase.get(previous);
    const overlay = base ? outcomeOverlay(base, entries) : undefined;
    if (!base || overlay === undefined || overlay.byteLength > OVERLAY_GZIP_BYTES) return { kind: 'rewrite', request, reports: entries.map(reportAfter) };
    const items = this.headerItems({
      tenant: request.tenant, meterId: previous.meterId, window: previous.window, previous, evaluatedAt: previous.evaluatedAt, now: request.now,
      generation: previous.generation, shards: previous.shards, counts: { reports: entries.length, open: entries.filter((entry) => OPEN_STATUSES.has(statusAfter(entry))).length }, overlay,
    });
    const kept = options.keepGroup ?? true;
    return { kind: 'overlay', items, bytes: overlay.byteLength, ...(kept ? { group: { ...previous, revision: previous.revision + 1, reports: entries.map(reportAfter) }, base } : {}) };
  }

  /**
   * Commits prepared outcomes: overlays in as few transactions as fit, rewrites each on its own.
   * Results in order: the committed group ('committed' when it was not kept), or 'conflict'.
   */
  async commitPreparedOutcomes(prepared: readonly PreparedOutcomes[]): Promise<(WindowReports | 'committed' | 'conflict')[]> {
    const results: (WindowReports | 'committed' | 'conflict')[] = new Array(prepared.length);
    const overlays: { at: number; entry: Extract<PreparedOutcomes, { kind: 'overlay' }> }[] = [];
    const rewrites: Promise<void>[] = [];
    prepared.forEach((entry, at) => {
      if (entry.kind === 'overlay') {
        overlays.push({ at, entry });
        return;
      }
      const { request, reports } = entry;
      const { previous } = request;
      rewrites.push(this.commitWindow({ tenant: request.tenant, meterId: previous.meterId, window: previous.window, reports, previous, evaluatedAt: previous.evaluatedAt, now: request.now, ...(request.background ? { background: request.background } : {}) })
        .then((result) => { results[at] = result; }));
    });
    // Transactions hold at most 100 items and 4 MB.
    const batches: (typeof overlays)[] = [];
    let bytes = 0;
    for (const overlay of overlays) {
      const last = batches[batches.length - 1];
      if (!last || last.length >= 45 || bytes + overlay.entry.bytes > 3_000_000) {
        batches.push([overlay]);
        bytes = overlay.entry.bytes;
      } else {
        last.push(overlay);
        bytes += overlay.entry.bytes;
      }
    }
    const commit = async (batch: typeof overlays): Promise<void> => {
      try {
        await this.documents.send(new TransactWriteCommand({ TransactItems: batch.flatMap(({ entry }) => entry.items) }));
      } catch (error) {
        if (!(error instanceof TransactionCanceledException || (error as { name?: string }).name === 'TransactionCanceledException')) throw error;
        // One group lost its race and cancelled the others: each on its own finds out which.
        if (batch.length > 1) {
          await Promise.all(batch.map((overlay) => commit([overlay])));
          return;
        }
        results[batch[0]!.at] = 'conflict';
        return;
      }
      for (const { at, entry } of batch) {
        if (entry.group && entry.base) shardBase.set(entry.group, entry.base);
        results[at] = entry.group ?? 'committed';
      }
    };
    await Promise.all([...rewrites, ...batches.map(commit)]);
    return results;
  }

  /** The header put (conditioned on the revision it replaces) and the open marker's put or delete. */
  private headerItems(input: {
    tenant: ReportTenant; meterId: string; window: UsageWindow; previous: WindowReports | undefined; evaluatedAt: Date; now: Date;
    generation: string; shards: number; counts: { reports: number; open: number }; overlay?: Uint8Array;
  }): TransactItem[] {
    const { tenant, meterId, window, previous, counts } = input;
    const base = { meter_id: meterId, window_start: window.start.toISOString() };
    const header = {
      pk: reportsPartition(tenant), sk: headerSortKey(window.start, meterId), ...base, window_end: window.end.toISOString(), generation: input.generation, shards: input.shards,
      revision: (previous?.revision ?? 0) + 1, report_count: counts.reports, open_count: counts.open,
      evaluated_at: input.evaluatedAt.toISOString(), updated_at: input.now.toISOString(),
      ...(input.overlay ? { outcomes_gz: input.overlay } : {}),
    };
    const openKey = { pk: openReportsPartition(tenant), sk: openSortKey(meterId, window.start) };
    return [
      {
        Put: {
          TableName: this.tableName, Item: header,
          ConditionExpression: previous ? 'revision = :revision' : 'attribute_not_exists(pk)',
          ...(previous ? { ExpressionAttributeValues: { ':revision': previous.revision } } : {}),
        },
      },
      counts.open > 0 ? { Put: { TableName: this.tableName, Item: { ...openKey, ...base } } } : { Delete: { TableName: this.tableName, Key: openKey } },
    ];
  }

  private async deleteShards(pk: string, windowStart: Date, meterId: string, generation: string, count: number): Promise<void> {
    const keys = Array.from({ length: count }, (_, n) => ({ pk, sk: shardSortKey(windowStart, meterId, generation, n) }));
    await this.batchWrite(keys.map((Key) => ({ DeleteRequest: { Key } })));
  }

  private async batchPut(items: Record<string, unknown>[]): Promise<void> {
    await this.batchWrite(items.map((Item) => ({ PutRequest: { Item } })));
  }

  private async batchWrite(requests: Record<string, unknown>[]): Promise<void> {
    // Up to 25 per batch, and few batches at once: shards are large and DynamoDB caps a batch at 16 MB.
    const batches: Record<string, unknown>[][] = [];
    for (let i = 0; i < requests.length; i += 25) batches.push(requests.slice(i, i + 25));
    await mapWithConcurrency(batches, 4, async (batch) => {
      let pending: Record<string, unknown>[] | undefined = batch;
      for (let attempt = 0; pending && pending.length > 0; attempt += 1) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)));
        const result = await this.documents.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending as never } }));
        pending = result.UnprocessedItems?.[this.tableName] as Record<string, unknown>[] | undefined;
      }
    });
  }

  private async queryAll(input: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName'>): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.documents.send(new QueryCommand({ ...input, TableName: this.tableName, ExclusiveStartKey: startKey }));
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  /** The header alone (cheap: no shards), e.g. to see whether a window was evaluated. */
  async readHeader(tenant: ReportTenant, meterId: string, windowStart: Date): Promise<{ revision: number; evaluatedAt: Date } | undefined> {
    const { Item } = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: { pk: reportsPartition(tenant), sk: headerSortKey(windowStart, meterId) }, ConsistentRead: true }));
    return Item ? { revision: Number(Item['revision']), evaluatedAt: new Date(String(Item['evaluated_at'])) } : undefined;
  }
}

function groupFrom(header: Record<string, unknown>, items: readonly Record<string, unknown>[]): WindowReports {
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
  };
  // An overlay names reports of its own shards only; anything else is a bug or a lost write: fail loudly.
  for (const key of changed.keys()) if (!base.has(key)) throw new Error(`report group ${String(header['sk'])} has an outcome for ${key}, which is not in its shards`);
  shardBase.set(group, base);
  return group;
}

/** Reports in report-key order (keys computed once; the run hands them over sorted already, so usually a plain copy). */
function sortedByKey(reports: readonly BillingReport[]): BillingReport[] {
  const keyed = reports.map((report) => ({ key: reportKeyOf(report), report }));
  let sorted = true;
  for (let i = 1; i < keyed.length && sorted; i += 1) sorted = keyed[i - 1]!.key <= keyed[i]!.key;
  if (!sorted) keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((entry) => entry.report);
}

/** A report of an outcome commit: `report` after delivery, or `report` with the fields `set` (that copy made only if needed). */
interface OutcomeEntryOfReport {
  readonly key: string;
  readonly report: BillingReport;
  readonly set?: Readonly<Record<string, unknown>>;
}

function outcomeEntries(request: CommitOutcomesRequest): OutcomeEntryOfReport[] {
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

function sortedEntries(entries: OutcomeEntryOfReport[]): OutcomeEntryOfReport[] {
  let sorted = true;
  for (let i = 1; i < entries.length && sorted; i += 1) sorted = entries[i - 1]!.key <= entries[i]!.key;
  return sorted ? entries : entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const reportAfter = (entry: OutcomeEntryOfReport): BillingReport => (entry.set ? withFields(entry.report, entry.set) : entry.report);

/** A delivery sets `status`: read from what it set, without the delivered copy. */
function statusAfter(entry: OutcomeEntryOfReport): string {
  const status = entry.set?.['status'];
  return typeof status === 'string' ? status : entry.report.status;
}

/**
 * The overlay of `reports` over their shard copies: an entry per report that is not its shard copy,
 * holding only the fields that changed. undefined when a report is not in the shards (the set of
 * reports changed: only a full commit can record that).
 */
function outcomeOverlay(base: ReadonlyMap<string, BillingReport>, entries: readonly OutcomeEntryOfReport[]): Uint8Array | undefined {
  if (entries.length !== base.size) return undefined;
  // Entries that only set fields go in a row table (keys[i] ↔ sets[i]); others as v1 entries.
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
    else others.push(JSON.stringify([key, sameOrder ? { s: set, u: unset } : { r: report }]));
  }
  const json = encodeRowTable(sets, {
    wrap: { prefix: `{"v":3,"keys":${JSON.stringify(keys)},"other":[${others.join(',')}],"set":`, suffix: '}' },
    encodeValue: (field, value, set, i) => storedValue(field, value, set, ownKeys[i]!),
    repeated: REPEATED_FIELDS,
  });
  return gzipSync(json, { level: 1 });
}

function applyOutcome(shard: BillingReport | undefined, entry: OutcomeEntry): BillingReport {
  if ('r' in entry) return entry.r;
  if (!shard) throw new Error('an outcome overlay names a report missing from its shards');
  const merged: Record<string, unknown> = { ...shard, ...entry.s };
  for (const field of entry.u ?? []) delete merged[field];
  // Records of a v3 set name the report's current key as 0 (earlier formats never hold a number there).
  restoreOwnKeys(merged, shard.idempotency_key);
  return merged as BillingReport;
}

function unpackOverlay(value: unknown): [string, OutcomeEntry][] {
  const parsed = unzipJson(value);
  if (Array.isArray(parsed)) return parsed as [string, OutcomeEntry][];
  const table = parsed as { v?: unknown; keys?: unknown; set?: unknown; other?: unknown };
  if (!isRowTableVersion(table.v) || !Array.isArray(table.keys) || !Array.isArray(table.other)) throw new Error('an outcome overlay has an unknown format');
  const sets = decodeRowTable(table.set, restoreChannelRecords);
  if (sets.length !== table.keys.length) throw new Error(`an outcome overlay has ${table.keys.length} keys for ${sets.length} entries`);
  const keys = table.keys as string[];
  return [...sets.map((set, i): [string, OutcomeEntry] => [keys[i]!, { s: set }]), ...(table.other as [string, OutcomeEntry][])];
}

/** Reports packed into gzip JSON shards (v3), each under the item limit whatever the reports hold. */
function packShards(reports: readonly BillingReport[]): Uint8Array[] {
  const encode = (slice: readonly BillingReport[]) => encodeRowTable(slice, {
    wrap: { prefix: '{"v":3,"reports":', suffix: '}' },
    encodeValue: (field, value, report) => storedValue(field, value, report, report['idempotency_key']),
    repeated: REPEATED_FIELDS,
  });
  const shards: Uint8Array[] = [];
  const pack = (slice: readonly BillingReport[], json = encode(slice)) => {
    const gz = gzipSync(json, { level: 1 });
    if (gz.byteLength <= SHARD_GZIP_BYTES || slice.length <= 1) {
      shards.push(gz);
      return;
    }
    const middle = Math.ceil(slice.length / 2);
    pack(slice.slice(0, middle));
    pack(slice.slice(middle));
  };
  const whole = encode(reports);
  const parts = Math.ceil(whole.byteLength / SHARD_JSON_BYTES);
  if (parts <= 1) {
    pack(reports, whole);
    return shards;
  }
  const size = Math.ceil(reports.length / parts);
  for (let i = 0; i < reports.length; i += size) pack(reports.slice(i, i + size));
  return shards;
}

function unpackShard(value: unknown): BillingReport[] {
  const parsed = unzipJson(value);
  if (Array.isArray(parsed)) return parsed as BillingReport[];
  const table = parsed as { v?: unknown; reports?: unknown };
  if (!isRowTableVersion(table.v)) throw new Error('a report shard has an unknown format');
  return decodeRowTable(table.reports, (report) => {
    restoreChannelRecords(report);
    restoreOwnKeys(report, report['idempotency_key']);
  }) as unknown as BillingReport[];
}

/** v2 and v3 are row tables (v3 with repeated columns and own-key records, which v2 readers refuse by its number). */
const isRowTableVersion = (version: unknown) => version === 2 || version === 3;

function unzipJson(value: unknown): unknown {
  const bytes = value instanceof Uint8Array ? value : Buffer.from(String(value), 'base64');
  return JSON.parse(gunzipSync(bytes).toString('utf8'));
}

/**
 * How a value is stored in a row: a report's (or overlay entry's) channel_requests whose every
 * channel holds exactly the report's provider_requests, as its last key, leave them out (webhook
 * meters record each request in both; restoreChannelRecords puts copies back); and (v3) request
 * records of the report's own current key carry job_id 0 (restoreOwnKeys puts the key back).
 */
function storedValue(key: string, value: unknown, object: Record<string, unknown>, ownKey: unknown): unknown {
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

/** A channel entry whose provider_requests (its last key) are equal, record by record, to `records`. */
function holdsRecords(entry: unknown, records: readonly unknown[]): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const fields = Object.keys(entry);
  if (fields[fields.length - 1] !== 'provider_requests') return false;
  const own = (entry as Record<string, unknown>)['provider_requests'];
  return sameJson(own, records);
}

/** Values that take a few distinct forms across a window's reports (a delivery's records differ by batch only). */
const REPEATED_FIELDS: ReadonlySet<string> = new Set(['status', 'provider_requests', 'channel_requests', 'last_success_time', 'error_code', 'error_message', 'updated_at']);

/** Request records whose job_id is `ownKey` (the report's current idempotency key), stored with job_id 0. */
function withOwnKeyMarked(records: unknown, ownKey: unknown): unknown {
  if (!Array.isArray(records) || typeof ownKey !== 'string' || !records.some((record) => isRecordOf(record, ownKey))) return records;
  return records.map((record: unknown) => (isRecordOf(record, ownKey) ? { ...(record as Record<string, unknown>), job_id: 0 } : record));
}

const isRecordOf = (record: unknown, key: string) => typeof record === 'object' && record !== null && (record as Record<string, unknown>)['job_id'] === key;

/** Puts the report's idempotency key back into records stored with job_id 0 (its own and its channels'). */
function restoreOwnKeys(report: Record<string, unknown>, ownKey: unknown): void {
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
  if (Array.isArray(channels)) for (const entry of channels) if (typeof entry === 'object' && entry !== null) restore((entry as Record<string, unknown>)['provider_requests']);
}

function restoreChannelRecords(object: Record<string, unknown>): void {
  const channels = object['channel_requests'];
  if (!Array.isArray(channels)) return;
  for (const entry of channels as Record<string, unknown>[]) {
    if (typeof entry !== 'object' || entry === null || 'provider_requests' in entry) continue;
    const records = object['provider_requests'];
    if (!Array.isArray(records)) throw new Error('a stored channel entry refers to provider_requests its report does not have');
    entry['provider_requests'] = copyJson(records);
  }
}

const encodeCursor = (sk: string) => Buffer.from(sk, 'utf8').toString('base64url');

function decodeCursor(cursor: string): string {
  const sk = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!sk.startsWith('W#')) throw new ValidationError('cursor is not a billing report cursor', [{ field: 'cursor', reason: 'is not a cursor this list returned' }]);
  return sk;
}

/** Parses stored reports strictly (for tests and readers that want validation). */
export const parseStoredReport = (value: unknown): BillingReport => BillingReport.parse(value);
