import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGet } from '../../shared/aws/batch-get';
import { batchWrite, type WriteRequest } from '../../shared/aws/batch-write';
import type { ReportTenant, TransactItem } from '../reports/report-store';
import { queryAll } from '../../shared/aws/query-pages';

/**
 * The billing run's own state per meter, in the billing table:
 *
 *   pk BILLING_RUN#<org>#<app>  sk CURSOR#<meter>                 next window to evaluate, revision, which totals generation is current
 *                               sk TOTALS#<meter>#<generation>#<n> gzip JSON: report key → period-to-date total,
 *                                                                  for the keys whose hash modulo the shard count is n
 *                               sk LEASE#<meter>                  who runs the meter now, until when
 *
 * Totals shards are written before the cursor that points at them; the cursor is written in the same
 * transaction as the window's reports, so reports, totals and cursor move together or not at all.
 */

/** One period's total of a report key. */
export interface ClosedPeriodTotal {
  /** Period start / end (ISO): the subscription's current period, else the UTC calendar month. */
  readonly periodStart: string;
  readonly periodEnd: string;
  /** Sum of meter_usage of the subscription's windows in the period. */
  readonly usage: number;
  /** Corrections made after the period was final (every window reported), and the usage they changed. */
  readonly lateCorrections?: number;
  readonly lateUsage?: number;
}

export interface PeriodTotal extends ClosedPeriodTotal {
  /**
   * The totals of the periods before, newest first (at most EARLIER_PERIODS of window-reports.ts),
   * as reported, late corrections included: what a customer's last invoices were billed.
   */
  readonly earlier?: readonly ClosedPeriodTotal[];
}

/** A total as stored: short member names, as a meter's totals hold one entry per subscription (tens of thousands). */
interface StoredPeriodTotal {
  readonly ps: string;
  readonly pe: string;
  readonly u: number;
  /** Late corrections after final: [count, usage]. */
  readonly l?: [number, number];
  /** Earlier periods: [start, end, usage, late corrections?, late usage?], newest first. */
  readonly h?: StoredEarlier[];
}

type StoredEarlier = [string, string, number] | [string, string, number, number, number];

const lateOf = (stored: { l?: [number, number] } | StoredEarlier): { lateCorrections: number; lateUsage: number } | undefined => {
  const late = Array.isArray(stored) ? (stored.length === 5 ? [stored[3], stored[4]] : undefined) : stored.l;
  return late ? { lateCorrections: late[0]!, lateUsage: late[1]! } : undefined;
};

const storedTotal = (total: PeriodTotal): StoredPeriodTotal => ({
  ps: total.periodStart,
  pe: total.periodEnd,
  u: total.usage,
  ...(total.lateCorrections ? { l: [total.lateCorrections, total.lateUsage ?? 0] as [number, number] } : {}),
  ...(total.earlier?.length
    ? {
        h: total.earlier.map(
          (e): StoredEarlier =>
            e.lateCorrections ? [e.periodStart, e.periodEnd, e.usage, e.lateCorrections, e.lateUsage ?? 0] : [e.periodStart, e.periodEnd, e.usage],
        ),
      }
    : {}),
});
const periodTotal = (stored: StoredPeriodTotal): PeriodTotal => ({
  periodStart: stored.ps,
  periodEnd: stored.pe,
  usage: stored.u,
  ...lateOf(stored),
  ...(stored.h?.length ? { earlier: stored.h.map((e) => ({ periodStart: e[0], periodEnd: e[1], usage: e[2], ...lateOf(e) })) } : {}),
});

export interface MeterCursor {
  readonly nextWindowStart: Date;
  readonly revision: number;
  readonly totalsGeneration: string | null;
  readonly totalsShards: number;
  readonly totals: Map<string, PeriodTotal>;
}

/**
 * Entries a totals shard holds at most. A key's shard is its hash modulo the shard count, so a reader
 * of a few keys (a customer's usage page) reads only their shards; the run reads and writes them all.
 * Small shards cost the run little on AWS (write units are per KB either way) and spare the page the
 * decoding of every other customer's totals.
 */
const SHARD_ENTRIES = 500;

/** The shard holding a report key: FNV-1a of its UTF-16 code units, modulo the shard count. */
export function totalsShardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return hash % shards;
}

/** Cursors written before shards were chosen by hash hold their keys in sorted chunks: their readers read every shard. */
const HASHED_SHARDS = 'hashed';

/** Adds one totals shard's entries (gzip JSON of [report key, stored total]) to `into`. */
function readShard(gz: Uint8Array, into: Map<string, PeriodTotal>, wanted?: ReadonlySet<string>): void {
  for (const [key, stored] of JSON.parse(gunzipSync(gz).toString('utf8')) as [string, StoredPeriodTotal][]) {
    if (!wanted || wanted.has(key)) into.set(key, periodTotal(stored));
  }
}
export const runPartition = (t: ReportTenant) => `BILLING_RUN#${t.orgId}#${t.appId}`;
const meterPart = (meterId: string) => encodeURIComponent(meterId);
const cursorKey = (t: ReportTenant, meterId: string) => ({ pk: runPartition(t), sk: `CURSOR#${meterPart(meterId)}` });
const leaseKey = (t: ReportTenant, meterId: string) => ({ pk: runPartition(t), sk: `LEASE#${meterPart(meterId)}` });
const totalsKey = (t: ReportTenant, meterId: string, generation: string, n: number) => ({
  pk: runPartition(t),
  sk: `TOTALS#${meterPart(meterId)}#${generation}#${String(n).padStart(4, '0')}`,
});

export class RunStateStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Takes the meter's lease if free, expired or already ours; false when another run holds it. */
  async acquireLease(tenant: ReportTenant, meterId: string, holder: string, now: Date, ttlMs: number): Promise<boolean> {
    try {
      await this.documents.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...leaseKey(tenant, meterId), holder, lease_until: now.getTime() + ttlMs, expires_at: Math.ceil((now.getTime() + ttlMs) / 1000) + 86_400 },
          ConditionExpression: 'attribute_not_exists(pk) OR lease_until < :now OR holder = :holder',
          ExpressionAttributeValues: { ':now': now.getTime(), ':holder': holder },
        }),
      );
      return true;
    } catch (error) {
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  async releaseLease(tenant: ReportTenant, meterId: string, holder: string): Promise<void> {
    try {
      await this.documents.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: leaseKey(tenant, meterId),
          ConditionExpression: 'holder = :holder',
          ExpressionAttributeValues: { ':holder': holder },
        }),
      );
    } catch (error) {
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    }
  }

  async readCursor(tenant: ReportTenant, meterId: string): Promise<MeterCursor | undefined> {
    const { Item } = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: cursorKey(tenant, meterId), ConsistentRead: true }));
    if (!Item) return undefined;
    const generation = typeof Item['totals_generation'] === 'string' ? Item['totals_generation'] : null;
    const shards = Number(Item['totals_shards'] ?? 0);
    const totals = new Map<string, PeriodTotal>();
    if (generation !== null && shards > 0) {
      const items = await queryAll(this.documents, {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': runPartition(tenant), ':prefix': `TOTALS#${meterPart(meterId)}#${generation}#` },
        ConsistentRead: true,
      });
      if (items.length !== shards) throw new Error(`meter ${meterId}: totals generation ${generation} has ${items.length} of ${shards} shards`);
      for (const item of items) readShard(item['totals_gz'] as Uint8Array, totals);
    }
    return {
      nextWindowStart: new Date(String(Item['next_window_start'])),
      revision: Number(Item['revision']),
      totalsGeneration: generation,
      totalsShards: shards,
      totals,
    };
  }

  /**
   * Every meter's current period totals of a few report keys (a customer's usage page): the cursors
   * in one query, then only the shards holding those keys in one batch read, whatever the number of
   * other keys. A meter whose generation changed meanwhile (its shards deleted) is read again on its own.
   */
  async readTotalsOf(tenant: ReportTenant, reportKeys: readonly string[]): Promise<Map<string, Map<string, PeriodTotal>>> {
    return this.totalsReader(tenant).of(reportKeys);
  }

  /** Where every meter's cursor of the app stands (every window before it has had its first report), by meter id. */
  async cursorPositions(tenant: ReportTenant): Promise<Map<string, Date>> {
    return this.totalsReader(tenant).positions();
  }

  /** readTotalsOf in two steps: the cursors are read from now on, while the caller learns which keys it needs. */
  totalsReader(tenant: ReportTenant): {
    of(reportKeys: readonly string[]): Promise<Map<string, Map<string, PeriodTotal>>>;
    positions(): Promise<Map<string, Date>>;
  } {
    const cursorsRead = queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': runPartition(tenant), ':prefix': 'CURSOR#' },
      ConsistentRead: true,
    });
    // Awaited by `of`; marked handled now, for a caller that never asks.
    cursorsRead.catch(() => undefined);
    return {
      of: async (reportKeys) => this.shardsOf(tenant, await cursorsRead, reportKeys),
      positions: async () => new Map((await cursorsRead).map((item) => [String(item['meter_id']), new Date(String(item['next_window_start']))])),
    };
  }

  private async shardsOf(
    tenant: ReportTenant,
    cursors: readonly Record<string, unknown>[],
    reportKeys: readonly string[],
  ): Promise<Map<string, Map<string, PeriodTotal>>> {
    const wanted = new Set(reportKeys);
    const totals = new Map<string, Map<string, PeriodTotal>>();
    const shardKeys: ReturnType<typeof totalsKey>[] = [];
    const meters = cursors.map((item) => {
      const meterId = String(item['meter_id']);
      const generation = typeof item['totals_generation'] === 'string' ? item['totals_generation'] : null;
      const shards = Number(item['totals_shards'] ?? 0);
      totals.set(meterId, new Map());
      const numbers =
        generation === null || shards === 0 || wanted.size === 0
          ? []
          : item['totals_layout'] === HASHED_SHARDS || shards === 1
            ? [...new Set(reportKeys.map((key) => totalsShardOf(key, shards)))]
            : Array.from({ length: shards }, (_, n) => n);
      if (generation !== null) for (const n of numbers) shardKeys.push(totalsKey(tenant, meterId, generation, n));
      return { meterId, generation, needed: numbers.length };
    });
    const items = await batchGet(this.documents, this.tableName, shardKeys);
    const found = new Map<string, Uint8Array[]>();
    for (const item of items) {
      const [, meter, generation] = String(item['sk']).split('#');
      const key = `${decodeURIComponent(meter!)}#${generation}`;
      found.set(key, [...(found.get(key) ?? []), item['totals_gz'] as Uint8Array]);
    }
    for (const { meterId, generation, needed } of meters) {
      const shards = found.get(`${meterId}#${generation}`) ?? [];
      const map = totals.get(meterId)!;
      if (shards.length === needed) {
        for (const gz of shards) readShard(gz, map, wanted);
        continue;
      }
      for (const [key, total] of (await this.readCursor(tenant, meterId))?.totals ?? []) if (wanted.has(key)) map.set(key, total);
    }
    return totals;
  }

  /** Writes a new totals generation (not yet current: the cursor put makes it so). */
  async writeTotals(tenant: ReportTenant, meterId: string, totals: ReadonlyMap<string, PeriodTotal>): Promise<{ generation: string; shards: number }> {
    const generation = randomBytes(6).toString('hex');
    const entries = [...totals.entries()].map(([key, total]): [string, StoredPeriodTotal] => [key, storedTotal(total)]);
    const chunks: [string, StoredPeriodTotal][][] = Array.from({ length: Math.ceil(entries.length / SHARD_ENTRIES) }, () => []);
    for (const entry of entries) chunks[totalsShardOf(entry[0], chunks.length)]!.push(entry);
    await this.batch(
      chunks.map((chunk, n) => ({
        PutRequest: { Item: { ...totalsKey(tenant, meterId, generation, n), totals_gz: gzipSync(Buffer.from(JSON.stringify(chunk), 'utf8')) } },
      })),
    );
    return { generation, shards: chunks.length };
  }

  async deleteTotals(tenant: ReportTenant, meterId: string, generation: string | null, shards: number): Promise<void> {
    if (generation === null) return;
    await this.batch(Array.from({ length: shards }, (_, n) => ({ DeleteRequest: { Key: totalsKey(tenant, meterId, generation, n) } })));
  }

  /** The cursor write for a window commit, conditioned on the revision the run read (no other run moved it). */
  cursorPut(
    tenant: ReportTenant,
    meterId: string,
    next: { nextWindowStart: Date; totalsGeneration: string | null; totalsShards: number },
    previous: MeterCursor | undefined,
    now: Date,
  ): TransactItem {
    return {
      Put: {
        TableName: this.tableName,
        Item: {
          ...cursorKey(tenant, meterId),
          meter_id: meterId,
          next_window_start: next.nextWindowStart.toISOString(),
          revision: (previous?.revision ?? 0) + 1,
          totals_generation: next.totalsGeneration,
          totals_shards: next.totalsShards,
          totals_layout: HASHED_SHARDS,
          updated_at: now.toISOString(),
        },
        ConditionExpression: previous ? 'revision = :revision' : 'attribute_not_exists(pk)',
        ...(previous ? { ExpressionAttributeValues: { ':revision': previous.revision } } : {}),
      },
    };
  }

  /** Moves the cursor alone (trailing windows without usage), conditioned as cursorPut is. */
  async moveCursor(
    tenant: ReportTenant,
    meterId: string,
    next: { nextWindowStart: Date; totalsGeneration: string | null; totalsShards: number },
    previous: MeterCursor | undefined,
    now: Date,
  ): Promise<void> {
    await this.documents.send(new TransactWriteCommand({ TransactItems: [this.cursorPut(tenant, meterId, next, previous, now)] }));
  }

  private async batch(requests: readonly WriteRequest[]): Promise<void> {
    await batchWrite(this.documents, this.tableName, requests, { batchesInFlight: 4 });
  }
}
