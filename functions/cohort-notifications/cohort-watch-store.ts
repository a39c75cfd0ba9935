import { batchGet } from '../shared/aws/batch-get';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchWrite } from '../shared/aws/batch-write';
import { queryAll } from '../shared/aws/query-pages';
import { appRulesPartition } from '../resources/keys';
import { writeChannelOutcome } from '../notifications/channel-outcome-write';
import type { ChannelOutcome } from '../notifications/channel-outcomes';

/**
 * What the cohort watcher keeps, in the app's partition of the resources table:
 *   COHORT_WATCH#<cohort>                          when the membership was first taken, the last batch sent
 *   COHORT_MEMBER#<cohort>#<member>                the members as last seen (with their fields then)
 *   COHORT_CHANGE#<cohort>#<at>#<member>#<change>  an entry or a departure, until it is sent (then it expires after 30 days)
 *   COHORT_BATCH#<cohort>#<batch>                  a notification: its changes and each channel's outcome
 * A change is written in one transaction with the member item it moves, conditioned on that item:
 * two watchers, or a retry, record each change once.
 */

export interface CohortTenant {
  readonly orgId: string;
  readonly appId: string;
}

export type MembershipChange = 'added' | 'removed';

export interface PendingChange {
  readonly sk: string;
  readonly member_id: string;
  readonly change: MembershipChange;
  readonly at: string;
  readonly fields: Record<string, unknown>;
}

export interface NotificationBatch {
  readonly sk: string;
  readonly batch_id: string;
  readonly cohort_id: string;
  readonly status: 'open' | 'done';
  readonly changes: readonly string[];
  readonly channels: Readonly<Record<string, ChannelOutcome>>;
  readonly created_at: string;
}

const KEPT_AFTER_SENT_SECONDS = 30 * 86_400;
const pk = (tenant: CohortTenant) => appRulesPartition(tenant.orgId, tenant.appId);

export class CohortWatchStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async watch(tenant: CohortTenant, cohortId: string): Promise<{ baseline_at: string; last_batch_at?: string } | undefined> {
    const answer = await this.documents.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: pk(tenant), sk: `COHORT_WATCH#${cohortId}` }, ConsistentRead: true }),
    );
    return answer.Item as { baseline_at: string; last_batch_at?: string } | undefined;
  }

  /** The members as last seen, with the fields recorded for each. */
  async members(tenant: CohortTenant, cohortId: string): Promise<Map<string, Record<string, unknown>>> {
    const members = new Map<string, Record<string, unknown>>();
    for (const item of await this.query(tenant, `COHORT_MEMBER#${cohortId}#`))
      members.set(String(item['member_id']), (item['fields'] ?? {}) as Record<string, unknown>);
    return members;
  }

  /** The first look at a cohort: its members now, recorded without a change (nobody "entered" a cohort that was just started to be watched). */
  async writeBaseline(tenant: CohortTenant, cohortId: string, members: ReadonlyMap<string, Record<string, unknown>>, now: Date): Promise<void> {
    await batchWrite(
      this.documents,
      this.tableName,
      [...members].map(([memberId, fields]) => ({
        PutRequest: { Item: { pk: pk(tenant), sk: `COHORT_MEMBER#${cohortId}#${memberId}`, member_id: memberId, fields, since: now.toISOString() } },
      })),
    );
    await this.documents.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: pk(tenant), sk: `COHORT_WATCH#${cohortId}`, cohort_id: cohortId, baseline_at: now.toISOString() },
      }),
    );
  }

  /**
   * Moves one member in or out and, when the rule asks to be told (`notify`), records the change, in
   * one transaction; false when another watcher did it first.
   */
  async recordChange(
    tenant: CohortTenant,
    cohortId: string,
    memberId: string,
    change: MembershipChange,
    fields: Record<string, unknown>,
    now: Date,
    notify: boolean,
  ): Promise<boolean> {
    const at = now.toISOString();
    const memberKey = { pk: pk(tenant), sk: `COHORT_MEMBER#${cohortId}#${memberId}` };
    const move =
      change === 'added'
        ? {
            Put: { TableName: this.tableName, Item: { ...memberKey, member_id: memberId, fields, since: at }, ConditionExpression: 'attribute_not_exists(sk)' },
          }
        : { Delete: { TableName: this.tableName, Key: memberKey, ConditionExpression: 'attribute_exists(sk)' } };
    const record = {
      Put: {
        TableName: this.tableName,
        Item: { pk: pk(tenant), sk: `COHORT_CHANGE#${cohortId}#${at}#${memberId}#${change}`, cohort_id: cohortId, member_id: memberId, change, at, fields },
      },
    };
    try {
      await this.documents.send(new TransactWriteCommand({ TransactItems: notify ? [move, record] : [move] }));
      return true;
    } catch (error) {
      if (error instanceof TransactionCanceledException) return false;
      throw error;
    }
  }

  /** Changes not yet in a notification, oldest first. */
  async pendingChanges(tenant: CohortTenant, cohortId: string): Promise<PendingChange[]> {
    return (await this.query(tenant, `COHORT_CHANGE#${cohortId}#`, 'attribute_not_exists(batch_id)')) as unknown as PendingChange[];
  }

  async openBatches(tenant: CohortTenant, cohortId: string): Promise<NotificationBatch[]> {
    return (await this.query(
      tenant,
      `COHORT_BATCH#${cohortId}#`,
      '#status = :open',
      { '#status': 'status' },
      { ':open': 'open' },
    )) as unknown as NotificationBatch[];
  }

  /** Claims a notification of these changes for these channels; the existing batch when it was claimed before. */
  async claimBatch(
    tenant: CohortTenant,
    cohortId: string,
    batchId: string,
    changes: readonly string[],
    channels: readonly string[],
    now: Date,
  ): Promise<NotificationBatch> {
    const at = now.toISOString();
    const batch: NotificationBatch = {
      sk: `COHORT_BATCH#${cohortId}#${batchId}`,
      batch_id: batchId,
      cohort_id: cohortId,
      status: 'open',
      changes,
      channels: Object.fromEntries(channels.map((channel) => [channel, { status: 'pending', attempts: 0, updated_at: at }])),
      created_at: at,
    };
    try {
      await this.documents.send(
        new PutCommand({ TableName: this.tableName, Item: { pk: pk(tenant), ...batch }, ConditionExpression: 'attribute_not_exists(sk)' }),
      );
      return batch;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const existing = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: { pk: pk(tenant), sk: batch.sk }, ConsistentRead: true }));
      return existing.Item as NotificationBatch;
    }
  }

  /** Marks the batch's changes as taken (so no other batch takes them), to expire 30 days later. */
  async assignChanges(tenant: CohortTenant, changeSks: readonly string[], batchId: string, now: Date): Promise<void> {
    for (const sk of changeSks) {
      try {
        await this.documents.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: pk(tenant), sk },
            UpdateExpression: 'SET batch_id = :batch, expires_at = :expires',
            ConditionExpression: 'attribute_exists(sk) AND (attribute_not_exists(batch_id) OR batch_id = :batch)',
            ExpressionAttributeValues: { ':batch': batchId, ':expires': Math.floor(now.getTime() / 1000) + KEPT_AFTER_SENT_SECONDS },
          }),
        );
      } catch (error) {
        // Taken by another batch, or expired: that batch tells it.
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
  }

  /** Records one channel's outcome, if the channel is still in the state the caller read. */
  async setChannel(tenant: CohortTenant, batch: NotificationBatch, channel: string, from: ChannelOutcome['status'], outcome: ChannelOutcome): Promise<boolean> {
    return writeChannelOutcome(this.documents, this.tableName, { pk: pk(tenant), sk: batch.sk }, channel, from, outcome);
  }

  /** Closes a batch whose channels all have a final outcome, and notes when the cohort was last notified. */
  async closeBatch(tenant: CohortTenant, batch: NotificationBatch, now: Date): Promise<void> {
    const at = now.toISOString();
    await this.documents.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.tableName,
              Key: { pk: pk(tenant), sk: batch.sk },
              UpdateExpression: 'SET #status = :done, closed_at = :at, expires_at = :expires',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':done': 'done', ':at': at, ':expires': Math.floor(now.getTime() / 1000) + KEPT_AFTER_SENT_SECONDS },
            },
          },
          {
            Update: {
              TableName: this.tableName,
              Key: { pk: pk(tenant), sk: `COHORT_WATCH#${batch.cohort_id}` },
              UpdateExpression: 'SET last_batch_at = :created',
              ExpressionAttributeValues: { ':created': batch.created_at },
            },
          },
        ],
      }),
    );
  }

  async batch(tenant: CohortTenant, sk: string): Promise<NotificationBatch | undefined> {
    const answer = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: { pk: pk(tenant), sk }, ConsistentRead: true }));
    return answer.Item as NotificationBatch | undefined;
  }

  /** The changes of a notification, in its order (read in batches of 100; expired ones are left out). */
  async changesOf(tenant: CohortTenant, sks: readonly string[]): Promise<PendingChange[]> {
    const items = await batchGet(
      this.documents,
      this.tableName,
      sks.map((sk) => ({ pk: pk(tenant), sk })),
    );
    const bySk = new Map(items.map((item) => [String(item['sk']), item as unknown as PendingChange]));
    return sks.map((sk) => bySk.get(sk)).filter((change): change is PendingChange => change !== undefined);
  }

  private async query(
    tenant: CohortTenant,
    prefix: string,
    filter?: string,
    names?: Record<string, string>,
    values: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>[]> {
    return queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ...(filter ? { FilterExpression: filter } : {}),
      ...(names ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: { ':pk': pk(tenant), ':prefix': prefix, ...values },
      ConsistentRead: true,
    });
  }
}
