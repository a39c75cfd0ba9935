import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchWrite, type WriteRequest } from '../../shared/aws/batch-write';
import type { ReportTenant, TransactItem } from '../reports/report-store';
import { queryAll } from '../../shared/aws/query-pages';

/**
 * The billing run's own state per meter, in the billing table:
 *
 *   pk BILLING_RUN#<org>#<app>  sk CURSOR#<meter>                 next window to evaluate, revision, which totals generation is current
 *                               sk TOTALS#<meter>#<generation>#<n> gzip JSON: report key → period-to-date total
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
  /** Earlier periods: [start, end, usage], newest first. */
  readonly h?: [string, string, number][];
}

const storedTotal = (total: PeriodTotal): StoredPeriodTotal => ({
  ps: total.periodStart,
  pe: total.periodEnd,
  u: total.usage,
  ...(total.earlier?.length ? { h: total.earlier.map((e): [string, string, number] => [e.periodStart, e.periodEnd, e.usage]) } : {}),
});
const periodTotal = (stored: StoredPeriodTotal): PeriodTotal => ({
  periodStart: stored.ps,
  periodEnd: stored.pe,
  usage: stored.u,
  ...(stored.h?.length ? { earlier: stored.h.map(([periodStart, periodEnd, usage]) => ({ periodStart, periodEnd, usage })) } : {}),
});

export interface MeterCursor {
  readonly nextWindowStart: Date;
  readonly revision: number;
  readonly totalsGeneration: string | null;
  readonly totalsShards: number;
  readonly totals: Map<string, PeriodTotal>;
}

const SHARD_ENTRIES = 20_000;

/** Adds one totals shard's entries (gzip JSON of [report key, stored total]) to `into`. */
function readShard(gz: Uint8Array, into: Map<string, PeriodTotal>): void {
  for (const [key, stored] of JSON.parse(gunzipSync(gz).toString('utf8')) as [string, StoredPeriodTotal][]) into.set(key, periodTotal(stored));
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
   * Every meter's current period totals at once (for a customer's usage page): one query of the run
   * partition, read in key order (cursors before totals). A meter whose generation changed while it
   * was read (its shards deleted meanwhile) is read again on its own.
   */
  async readAllTotals(tenant: ReportTenant): Promise<Map<string, Map<string, PeriodTotal>>> {
    const cursors = new Map<string, { generation: string; shards: number }>();
    const shards = new Map<string, Uint8Array[]>();
    const items = await queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': runPartition(tenant) },
      ConsistentRead: true,
    });
    for (const item of items) {
      const [kind, meter, generation] = String(item['sk']).split('#');
      if (kind === 'CURSOR' && typeof item['totals_generation'] === 'string') {
        cursors.set(meter!, { generation: item['totals_generation'], shards: Number(item['totals_shards'] ?? 0) });
      } else if (kind === 'TOTALS') {
        const key = `${meter}#${generation}`;
        shards.set(key, [...(shards.get(key) ?? []), item['totals_gz'] as Uint8Array]);
      }
    }
    const totals = new Map<string, Map<string, PeriodTotal>>();
    for (const [meter, cursor] of cursors) {
      const meterId = decodeURIComponent(meter);
      const found = shards.get(`${meter}#${cursor.generation}`) ?? [];
      if (found.length !== cursor.shards) {
        totals.set(meterId, (await this.readCursor(tenant, meterId))?.totals ?? new Map());
        continue;
      }
      const map = new Map<string, PeriodTotal>();
      for (const gz of found) readShard(gz, map);
      totals.set(meterId, map);
    }
    return totals;
  }

  /** Writes a new totals generation (not yet current: the cursor put makes it so). */
  async writeTotals(tenant: ReportTenant, meterId: string, totals: ReadonlyMap<string, PeriodTotal>): Promise<{ generation: string; shards: number }> {
    const generation = randomBytes(6).toString('hex');
    const entries = [...totals.entries()].map(([key, total]): [string, StoredPeriodTotal] => [key, storedTotal(total)]);
    const chunks: [string, StoredPeriodTotal][][] = [];
    for (let i = 0; i < entries.length; i += SHARD_ENTRIES) chunks.push(entries.slice(i, i + SHARD_ENTRIES));
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
