import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapWithConcurrency } from '../../shared/concurrency';
import { queryAll } from '../../shared/aws/query-pages';

/**
 * Marks of late events, so the billing run re-evaluates only the windows late events touched instead
 * of rescanning every closed window.
 *
 * The consumer marks, after indexing, every UTC hour of an app that received an event whose time is
 * more than LATE_AFTER_MS before the moment it was indexed: `LATE#<org>#<app>` / `HOUR#<hour start>`,
 * with `last_indexed_at`. A billing run that evaluated a window at time E re-evaluates it when a mark
 * overlapping the window has `last_indexed_at` > E. Billing waits at least LATE_AFTER_MS after a
 * window closes before its first evaluation, so every event indexed after that evaluation is marked.
 */
export const LATE_AFTER_MS = 5 * 60_000;
const HOUR_MS = 3_600_000;
/** Marks outlive the 30-day acceptance window, so a correction can still find them. */
const MARK_RETENTION_SECONDS = 35 * 86_400;

export interface IndexedEvent {
  readonly org_id: string;
  readonly app_id: string;
  /** Event time, ISO 8601. */
  readonly time: string;
}

export interface LateWindowMark {
  readonly hourStart: Date;
  readonly lastIndexedAt: Date;
  /** Late events counted into this hour (across marks; informational). */
  readonly events: number;
}

interface HourMark {
  readonly org_id: string;
  readonly app_id: string;
  readonly hourStart: number;
  count: number;
}

export const lateMarksPartition = (orgId: string, appId: string) => `LATE#${orgId}#${appId}`;

export class LateWindowStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Marks the hours of the late events among `events`, indexed at `indexedAt`; one write per (app, hour). */
  async markLate(events: readonly IndexedEvent[], indexedAt: Date): Promise<number> {
    const hours = new Map<string, HourMark>();
    for (const event of events) {
      const time = Date.parse(event.time);
      if (!Number.isFinite(time) || indexedAt.getTime() - time <= LATE_AFTER_MS) continue;
      const hourStart = Math.floor(time / HOUR_MS) * HOUR_MS;
      const key = `${event.org_id}#${event.app_id}#${hourStart}`;
      const entry = hours.get(key);
      if (entry) entry.count += 1;
      else hours.set(key, { org_id: event.org_id, app_id: event.app_id, hourStart, count: 1 });
    }
    await this.markHours([...hours.values()], indexedAt);
    return hours.size;
  }

  /**
   * Marks hours whose events changed at `changedAt` other than by arriving (a void: events.voidEvents):
   * the run re-evaluates every window overlapping them that it evaluated before.
   */
  async markChanged(orgId: string, appId: string, hours: readonly { readonly hourStart: Date; readonly count: number }[], changedAt: Date): Promise<void> {
    await this.markHours(
      hours.map((hour) => ({ org_id: orgId, app_id: appId, hourStart: Math.floor(hour.hourStart.getTime() / HOUR_MS) * HOUR_MS, count: hour.count })),
      changedAt,
    );
  }

  private async markHours(marks: readonly HourMark[], indexedAt: Date): Promise<void> {
    await mapWithConcurrency(marks, 8, async (mark) => {
      const key = { pk: lateMarksPartition(mark.org_id, mark.app_id), sk: `HOUR#${new Date(mark.hourStart).toISOString()}` };
      const values = { ':at': indexedAt.toISOString(), ':expires': Math.floor((mark.hourStart + HOUR_MS) / 1000) + MARK_RETENTION_SECONDS, ':n': mark.count };
      try {
        // A later indexing moves the mark forward, never back (batches may finish out of order).
        await this.documents.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: 'SET last_indexed_at = :at, expires_at = :expires ADD events :n',
            ConditionExpression: 'attribute_not_exists(last_indexed_at) OR last_indexed_at < :at',
            ExpressionAttributeValues: values,
          }),
        );
      } catch (error) {
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
        await this.documents.send(
          new UpdateCommand({ TableName: this.tableName, Key: key, UpdateExpression: 'ADD events :n', ExpressionAttributeValues: { ':n': mark.count } }),
        );
      }
    });
  }

  /** Marks of an app's hours in [from, to), i.e. the hours a billing run may have to re-evaluate. */
  async marksBetween(orgId: string, appId: string, from: Date, to: Date): Promise<LateWindowMark[]> {
    const items = await queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': lateMarksPartition(orgId, appId),
        ':from': `HOUR#${new Date(Math.floor(from.getTime() / HOUR_MS) * HOUR_MS).toISOString()}`,
        // ISO strings sort by time; the upper bound is the last hour starting before `to`.
        ':to': `HOUR#${new Date(Math.ceil(to.getTime() / HOUR_MS) * HOUR_MS - HOUR_MS).toISOString()}`,
      },
    });
    return items.map((item) => ({
      hourStart: new Date(String(item['sk']).slice('HOUR#'.length)),
      lastIndexedAt: new Date(String(item['last_indexed_at'])),
      events: Number(item['events'] ?? 0),
    }));
  }
}
