import { randomBytes } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchWrite, type WriteRequest } from '../../shared/aws/batch-write';
import type { BillingReport } from '../../../schemas/billing/report';
import type { UsageWindow } from '../../../values/reporting-period';
import { parseReportId } from './report-id';
import { groupFrom, outcomeEntries, outcomeOverlay, packShards, reportAfter, sortedByKey, sortedEntries, statusAfter } from './report-codec';
import {
  OPEN_STATUSES,
  OVERLAY_GZIP_BYTES,
  groupPrefix,
  headerSortKey,
  openReportsPartition,
  openSortKey,
  reportKeyOf,
  reportsPartition,
  shardSortKey,
} from './report-keys';
import type {
  CommitOutcomesRequest,
  CommitWindowRequest,
  ListWindowsRequest,
  PreparedOutcomes,
  ReportTenant,
  TransactItem,
  WindowReports,
} from './report-types';
import { queryAll, type QueryInput } from '../../shared/aws/query-pages';
import { listWindows } from './report-listing';
export { parseStoredReport } from './report-codec';
export { reportsPartition, openReportsPartition, reportKeyOf } from './report-keys';
export { deliveredReport } from './report-types';
export type {
  ReportTenant,
  WindowReports,
  TransactItem,
  CommitWindowRequest,
  ReportOutcome,
  DeliveredReports,
  CommitOutcomesRequest,
  PreparedOutcomes,
  ListWindowsRequest,
} from './report-types';

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
 *
 * The stored format of shards and overlays is in report-codec.ts.
 */

export class ReportStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** One group, or undefined when the window was never committed for the meter. */
  async readWindow(tenant: ReportTenant, meterId: string, windowStart: Date): Promise<WindowReports | undefined> {
    const items = await this.queryTable({
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
    return listWindows(this.documents, this.tableName, tenant, request);
  }

  /** Every group whose window overlaps [from, to), read a page of 200 at a time. */
  async *windowsBetween(tenant: ReportTenant, request: Omit<ListWindowsRequest, 'cursor' | 'maxWindows'>): AsyncIterable<WindowReports> {
    let cursor: string | undefined;
    do {
      const page = await this.listWindows(tenant, { ...request, maxWindows: 200, ...(cursor ? { cursor } : {}) });
      yield* page.windows;
      cursor = page.cursor;
    } while (cursor);
  }

  /** Groups that still hold pending or retrying reports (a cheap sparse index, not a scan of the reports). */
  async openWindows(tenant: ReportTenant, meterId: string): Promise<Date[]> {
    const items = await this.queryTable({
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
    const result = await this.commitWindows([request], {
      ...(request.extraItems ? { extraItems: request.extraItems } : {}),
      ...(request.background ? { background: request.background } : {}),
    });
    return result === 'conflict' ? result : result[0]!;
  }

  /**
   * Several groups (e.g. consecutive windows of a meter) committed together: all shards first, then
   * ONE transaction with every header (each conditioned on its revision) and `extraItems`. At most
   * 45 groups (two transaction items each) plus 10 extra items.
   */
  async commitWindows(
    requests: readonly Omit<CommitWindowRequest, 'extraItems' | 'background'>[],
    options: Pick<CommitWindowRequest, 'extraItems' | 'background'> = {},
  ): Promise<WindowReports[] | 'conflict'> {
    if (requests.length === 0 || requests.length > 45) throw new RangeError(`commitWindows takes 1 to 45 groups, not ${requests.length}`);
    const packing: { request: (typeof requests)[number]; reports: BillingReport[]; generation: string; shards: Promise<Uint8Array[]>; pk: string }[] = [];
    for (const request of requests) {
      // A window is encoded on the event loop and compressed on the thread pool while the next one is
      // encoded; between windows the loop runs what waits on it (the next queries, deliveries).
      if (packing.length > 0) await setImmediate();
      const reports = sortedByKey(request.reports);
      packing.push({ request, reports, generation: randomBytes(6).toString('hex'), shards: packShards(reports), pk: reportsPartition(request.tenant) });
    }
    const prepared = await Promise.all(packing.map(async (item) => ({ ...item, shards: await item.shards })));
    const shardItems = prepared.flatMap(({ request, generation, shards, pk }) =>
      shards.map((gz, n) => ({
        pk,
        sk: shardSortKey(request.window.start, request.meterId, generation, n),
        meter_id: request.meterId,
        window_start: request.window.start.toISOString(),
        generation,
        reports_gz: gz,
      })),
    );
    const [, extraItems] = await Promise.all([
      this.batchPut(shardItems),
      typeof options.extraItems === 'function' ? options.extraItems() : Promise.resolve(options.extraItems ?? []),
    ]);
    const transactItems: TransactItem[] = prepared.flatMap(({ request, reports, generation, shards }) =>
      this.headerItems({
        ...request,
        generation,
        shards: shards.length,
        counts: { reports: reports.length, open: reports.filter((report) => OPEN_STATUSES.has(report.status)).length },
      }),
    );
    try {
      await this.documents.send(new TransactWriteCommand({ TransactItems: [...transactItems, ...extraItems] }));
    } catch (error) {
      await Promise.all(
        prepared.map(({ request, generation, shards, pk }) => this.deleteShards(pk, request.window.start, request.meterId, generation, shards.length)),
      );
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
      committed.push({
        meterId: request.meterId,
        window: request.window,
        revision: (request.previous?.revision ?? 0) + 1,
        generation,
        shards: shards.length,
        evaluatedAt: request.evaluatedAt,
        reports,
        storedCopies: new Map(reports.map((report) => [reportKeyOf(report), report])),
      });
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
    const base = previous.storedCopies;
    const overlay = base ? outcomeOverlay(base, entries) : undefined;
    if (!base || overlay === undefined || overlay.byteLength > OVERLAY_GZIP_BYTES) return { kind: 'rewrite', request, reports: entries.map(reportAfter) };
    const items = this.headerItems({
      tenant: request.tenant,
      meterId: previous.meterId,
      window: previous.window,
      previous,
      evaluatedAt: previous.evaluatedAt,
      now: request.now,
      generation: previous.generation,
      shards: previous.shards,
      counts: { reports: entries.length, open: entries.filter((entry) => OPEN_STATUSES.has(statusAfter(entry))).length },
      overlay,
    });
    const kept = options.keepGroup ?? true;
    // The shards stay as they are, so the committed group keeps the same stored copies.
    return {
      kind: 'overlay',
      items,
      bytes: overlay.byteLength,
      ...(kept ? { group: { ...previous, revision: previous.revision + 1, reports: entries.map(reportAfter) } } : {}),
    };
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
      rewrites.push(
        this.commitWindow({
          tenant: request.tenant,
          meterId: previous.meterId,
          window: previous.window,
          reports,
          previous,
          evaluatedAt: previous.evaluatedAt,
          now: request.now,
          ...(request.background ? { background: request.background } : {}),
        }).then((result) => {
          results[at] = result;
        }),
      );
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
      for (const { at, entry } of batch) results[at] = entry.group ?? 'committed';
    };
    await Promise.all([...rewrites, ...batches.map(commit)]);
    return results;
  }

  /** The header put (conditioned on the revision it replaces) and the open marker's put or delete. */
  private headerItems(input: {
    tenant: ReportTenant;
    meterId: string;
    window: UsageWindow;
    previous: WindowReports | undefined;
    evaluatedAt: Date;
    now: Date;
    generation: string;
    shards: number;
    counts: { reports: number; open: number };
    overlay?: Uint8Array;
  }): TransactItem[] {
    const { tenant, meterId, window, previous, counts } = input;
    const base = { meter_id: meterId, window_start: window.start.toISOString() };
    const header = {
      pk: reportsPartition(tenant),
      sk: headerSortKey(window.start, meterId),
      ...base,
      window_end: window.end.toISOString(),
      generation: input.generation,
      shards: input.shards,
      revision: (previous?.revision ?? 0) + 1,
      report_count: counts.reports,
      open_count: counts.open,
      evaluated_at: input.evaluatedAt.toISOString(),
      updated_at: input.now.toISOString(),
      ...(input.overlay ? { outcomes_gz: input.overlay } : {}),
    };
    const openKey = { pk: openReportsPartition(tenant), sk: openSortKey(meterId, window.start) };
    return [
      {
        Put: {
          TableName: this.tableName,
          Item: header,
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

  private async batchWrite(requests: readonly WriteRequest[]): Promise<void> {
    // Shards are large: a few batches at once (DynamoDB caps a batch at 16 MB).
    await batchWrite(this.documents, this.tableName, requests, { batchesInFlight: 4 });
  }

  private async queryTable(input: Omit<QueryInput, 'TableName'>): Promise<Record<string, unknown>[]> {
    return queryAll(this.documents, { ...input, TableName: this.tableName });
  }

  /** The header alone (cheap: no shards), e.g. to see whether a window was evaluated. */
  async readHeader(tenant: ReportTenant, meterId: string, windowStart: Date): Promise<{ revision: number; evaluatedAt: Date } | undefined> {
    const { Item } = await this.documents.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: reportsPartition(tenant), sk: headerSortKey(windowStart, meterId) }, ConsistentRead: true }),
    );
    return Item ? { revision: Number(Item['revision']), evaluatedAt: new Date(String(Item['evaluated_at'])) } : undefined;
  }
}
