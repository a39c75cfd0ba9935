import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapWithConcurrency } from '../../shared/concurrency';
import { ValidationError } from '../../shared/errors';
import { BillingReport } from '../../../schemas/billing/report';
import type { UsageWindow } from '../schedule/reporting-period';
import { companyReportKey, parseReportId, subscriptionReportKey } from './report-id';

/**
 * Billing reports in the billing table, grouped per (meter, window) — one item per report would be
 * far too many writes (a month of hourly windows × thousands of subscriptions × meters).
 *
 *   pk REPORTS#<org>#<app>  sk W#<window start ISO>#<meter>#H                   header: generation, shards, revision, evaluated_at, counts
 *                           sk W#<window start ISO>#<meter>#S#<generation>#<n>   gzip JSON array of reports (< 350 KB each)
 *   pk REPORTS_OPEN#<org>#<app>  sk <meter>#<window start ISO>               present while the group has pending/retrying reports
 *
 * A commit writes the new generation's shards first, then ONE TransactWrite puts the header
 * (conditioned on the revision it was computed from) together with whatever the caller commits with
 * it (totals, cursor). Readers follow the header, so they see the whole previous generation or the
 * whole new one, never a mix; shards of a generation whose header write failed are never read.
 * ISO window starts sort by time, so listing a time range is one Query.
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
const SHARD_JSON_BYTES = 1_000_000;
const SHARD_GZIP_BYTES = 340_000;
/** Reporting windows are at most 31 days long: a window starting this long before `from` may still overlap it. */
const MAX_WINDOW_MS = 31 * 86_400_000;
const OPEN_STATUSES = new Set(['pending', 'retrying']);

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
    const prepared = requests.map((request) => {
      const reports = [...request.reports].sort((a, b) => (reportKeyOf(a) < reportKeyOf(b) ? -1 : reportKeyOf(a) > reportKeyOf(b) ? 1 : 0));
      return { request, reports, generation: randomBytes(6).toString('hex'), shards: packShards(reports), pk: reportsPartition(request.tenant) };
    });
    const shardItems = prepared.flatMap(({ request, generation, shards, pk }) =>
      shards.map((gz, n) => ({ pk, sk: shardSortKey(request.window.start, request.meterId, generation, n), meter_id: request.meterId, window_start: request.window.start.toISOString(), generation, reports_gz: gz })));
    const [, extraItems] = await Promise.all([
      this.batchPut(shardItems),
      typeof options.extraItems === 'function' ? options.extraItems() : Promise.resolve(options.extraItems ?? []),
    ]);
    const transactItems: TransactItem[] = prepared.flatMap(({ request, reports, generation, shards, pk }) => {
      const base = { meter_id: request.meterId, window_start: request.window.start.toISOString() };
      const openCount = reports.filter((report) => OPEN_STATUSES.has(report.status)).length;
      const header = {
        pk, sk: headerSortKey(request.window.start, request.meterId), ...base, window_end: request.window.end.toISOString(), generation, shards: shards.length,
        revision: (request.previous?.revision ?? 0) + 1, report_count: reports.length, open_count: openCount,
        evaluated_at: request.evaluatedAt.toISOString(), updated_at: request.now.toISOString(),
      };
      const openKey = { pk: openReportsPartition(request.tenant), sk: openSortKey(request.meterId, request.window.start) };
      return [
        {
          Put: {
            TableName: this.tableName, Item: header,
            ConditionExpression: request.previous ? 'revision = :revision' : 'attribute_not_exists(pk)',
            ...(request.previous ? { ExpressionAttributeValues: { ':revision': request.previous.revision } } : {}),
          },
        },
        openCount > 0 ? { Put: { TableName: this.tableName, Item: { ...openKey, ...base } } } : { Delete: { TableName: this.tableName, Key: openKey } },
      ];
    });
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
      committed.push({ meterId: request.meterId, window: request.window, revision: (request.previous?.revision ?? 0) + 1, generation, shards: shards.length, evaluatedAt: request.evaluatedAt, reports });
    }
    return committed;
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
  const reports = shardItems.flatMap((item) => unpackShard(item['reports_gz']));
  return {
    meterId: String(header['meter_id']),
    window: { start: new Date(String(header['window_start'])), end: new Date(String(header['window_end'])) },
    revision: Number(header['revision']),
    generation,
    shards: expected,
    evaluatedAt: new Date(String(header['evaluated_at'])),
    reports,
  };
}

/** Reports packed into gzip JSON shards, each under the item limit whatever the reports hold. */
function packShards(reports: readonly BillingReport[]): Uint8Array[] {
  const texts = reports.map((report) => JSON.stringify(report));
  const shards: Uint8Array[] = [];
  const pack = (slice: readonly string[]) => {
    const gz = gzipSync(Buffer.from(`[${slice.join(',')}]`, 'utf8'), { level: 1 });
    if (gz.byteLength <= SHARD_GZIP_BYTES || slice.length <= 1) {
      shards.push(gz);
      return;
    }
    const middle = Math.ceil(slice.length / 2);
    pack(slice.slice(0, middle));
    pack(slice.slice(middle));
  };
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < texts.length; i += 1) {
    const size = texts[i]!.length + 1;
    if (bytes + size > SHARD_JSON_BYTES && i > start) {
      pack(texts.slice(start, i));
      start = i;
      bytes = 0;
    }
    bytes += size;
  }
  if (texts.length > start || texts.length === 0) pack(texts.slice(start));
  return shards;
}

function unpackShard(value: unknown): BillingReport[] {
  const bytes = value instanceof Uint8Array ? value : Buffer.from(String(value), 'base64');
  return JSON.parse(gunzipSync(bytes).toString('utf8')) as BillingReport[];
}

const encodeCursor = (sk: string) => Buffer.from(sk, 'utf8').toString('base64url');

function decodeCursor(cursor: string): string {
  const sk = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!sk.startsWith('W#')) throw new ValidationError('cursor is not a billing report cursor', [{ field: 'cursor', reason: 'is not a cursor this list returned' }]);
  return sk;
}

/** Parses stored reports strictly (for tests and readers that want validation). */
export const parseStoredReport = (value: unknown): BillingReport => BillingReport.parse(value);
