import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AlertEvent } from '../../schemas/resources/alert-rule';
import type { ChannelOutcome, ChannelStatus } from '../notifications/channel-outcomes';
import { appRulesPartition } from '../resources/keys';
import { writeChannelOutcome } from '../notifications/channel-outcome-write';
import { batchGet } from '../shared/aws/batch-get';
import { queryAll } from '../shared/aws/query-pages';

/**
 * What alert evaluation keeps, in the app's partition of the resources table:
 *   ALERTRUN#<alert>                   the end of the last evaluated window (claimed by one run per tick)
 *   ALERTSERIES#<alert>#<series>       ok or firing, with a version every change is conditioned on
 *   ALERTEVENT#<alert>#<at>#<event>    a firing or a resolve, and each channel's outcome (the history)
 *   ALERTOPEN#<alert>#<event>          the events whose channels are not all final yet
 * A transition writes the series and its event in one transaction conditioned on the series' version:
 * two runs, or a retry, record each firing and each resolve once.
 */

export interface AlertTenant {
  readonly orgId: string;
  readonly appId: string;
}

export interface SeriesState {
  readonly status: 'ok' | 'firing';
  readonly version: number;
  readonly last_fired_at?: string;
}

export type StoredAlertEvent = AlertEvent & { readonly sk: string };

const pk = (t: AlertTenant) => appRulesPartition(t.orgId, t.appId);
const seriesKey = (alertId: string, series: string) => `ALERTSERIES#${alertId}#${series}`;
const eventPrefix = (alertId: string) => `ALERTEVENT#${alertId}#`;
const openKey = (alertId: string, eventId: string) => `ALERTOPEN#${alertId}#${eventId}`;
/** History kept per alert: events expire after 90 days. */
const HISTORY_SECONDS = 90 * 86_400;

export class AlertStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Claims the evaluation of the window ending at `windowEnd`: true for the one run that moves the
   * alert's last window forward from `previous` (undefined: never evaluated).
   */
  async claimWindow(t: AlertTenant, alertId: string, previous: string | undefined, windowEnd: Date): Promise<boolean> {
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: pk(t), sk: `ALERTRUN#${alertId}` },
          UpdateExpression: 'SET window_end = :end',
          ConditionExpression: previous === undefined ? 'attribute_not_exists(window_end)' : 'window_end = :previous',
          ExpressionAttributeValues: { ':end': windowEnd.toISOString(), ...(previous === undefined ? {} : { ':previous': previous }) },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async lastWindowEnd(t: AlertTenant, alertId: string): Promise<string | undefined> {
    const { Item } = await this.documents.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: pk(t), sk: `ALERTRUN#${alertId}` }, ConsistentRead: true }),
    );
    return typeof Item?.['window_end'] === 'string' ? Item['window_end'] : undefined;
  }

  /** Every series of the alert with a state, by series. */
  async series(t: AlertTenant, alertId: string): Promise<Map<string, SeriesState>> {
    const items = await queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk(t), ':prefix': seriesKey(alertId, '') },
      ConsistentRead: true,
    });
    return new Map(
      items.map((item) => [
        String(item['sk']).slice(seriesKey(alertId, '').length),
        {
          status: item['status'] === 'firing' ? 'firing' : 'ok',
          version: Number(item['version'] ?? 0),
          ...(item['last_fired_at'] ? { last_fired_at: String(item['last_fired_at']) } : {}),
        },
      ]),
    );
  }

  /** Moves a series to `next` and records its event, once: false when another run changed the series first. */
  async transition(t: AlertTenant, current: SeriesState | undefined, event: AlertEvent): Promise<StoredAlertEvent | undefined> {
    const next = event.kind === 'fired' ? 'firing' : 'ok';
    const sk = `${eventPrefix(event.alert_id)}${event.at}#${event.event_id}`;
    const stored: StoredAlertEvent = { ...event, sk };
    try {
      await this.documents.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: {
                  pk: pk(t),
                  sk: seriesKey(event.alert_id, event.series),
                  status: next,
                  version: (current?.version ?? 0) + 1,
                  updated_at: event.at,
                  ...(event.kind === 'fired' ? { last_fired_at: event.at } : current?.last_fired_at ? { last_fired_at: current.last_fired_at } : {}),
                },
                ConditionExpression: current === undefined ? 'attribute_not_exists(pk)' : 'version = :version',
                ...(current === undefined ? {} : { ExpressionAttributeValues: { ':version': current.version } }),
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: { pk: pk(t), ...stored, expires_at: Math.floor(Date.parse(event.at) / 1000) + HISTORY_SECONDS },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Put: { TableName: this.tableName, Item: { pk: pk(t), sk: openKey(event.alert_id, event.event_id), event_sk: sk } } },
          ],
        }),
      );
      return stored;
    } catch (error) {
      // Another run moved the series (or wrote this very event) first; anything else is a failure.
      const reasons = error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];
      if (reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) return undefined;
      throw error;
    }
  }

  /** The alert's events whose channels are not all final. */
  async openEvents(t: AlertTenant, alertId: string): Promise<StoredAlertEvent[]> {
    const pointers = await queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk(t), ':prefix': openKey(alertId, '') },
      ConsistentRead: true,
    });
    const items = await batchGet(
      this.documents,
      this.tableName,
      pointers.map((pointer) => ({ pk: pk(t), sk: String(pointer['event_sk']) })),
    );
    const events = items.map(eventOf);
    return events.sort((a, b) => (a.sk < b.sk ? -1 : 1));
  }

  async setChannel(t: AlertTenant, event: StoredAlertEvent, channel: string, from: ChannelStatus, outcome: ChannelOutcome): Promise<boolean> {
    return writeChannelOutcome(this.documents, this.tableName, { pk: pk(t), sk: event.sk }, channel, from, outcome);
  }

  /** The event's channels are all final: it leaves the open list. */
  async close(t: AlertTenant, event: StoredAlertEvent): Promise<void> {
    await this.documents.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: pk(t), sk: openKey(event.alert_id, event.event_id) } }));
  }

  /** The alert's history, newest first, `take` per page; `before` is the `next_before` of the page before. */
  async history(t: AlertTenant, alertId: string, take: number, before?: string): Promise<{ events: StoredAlertEvent[]; next_before?: string }> {
    const answer = await this.documents.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk(t), ':prefix': eventPrefix(alertId) },
        ScanIndexForward: false,
        Limit: take,
        ConsistentRead: true,
        ...(before === undefined ? {} : { ExclusiveStartKey: { pk: pk(t), sk: before } }),
      }),
    );
    const events = (answer.Items ?? []).map(eventOf);
    return { events, ...(answer.LastEvaluatedKey && events.length === take ? { next_before: events[events.length - 1]!.sk } : {}) };
  }
}

function eventOf(item: Record<string, unknown>): StoredAlertEvent {
  const { pk: _pk, expires_at: _expires, ...event } = item;
  return event as StoredAlertEvent;
}
