import { batchGet } from '../shared/aws/batch-get';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { EmailSendRecord, type EmailSendStatus } from '../../schemas/resources/email-send';
import { appRulesPartition } from '../resources/keys';
import { queryItems } from '../shared/aws/query-pages';

/**
 * Send records and unsubscribes of behavioural emails, in the app's partition of the resources
 * table (so deleting the app purges them):
 *   EMAIL_SEND#<template_id>#<period_key>#<user_id>   one per (template, period, recipient)
 *   EMAIL_UNSUB#<template_id or *>#<email>            an unsubscribe from one template, or from all
 * A record is put (conditionally) before its message is sent: the condition is what makes a second
 * sender, a retry or a restart skip a recipient already claimed.
 */

export interface EmailTenant {
  readonly orgId: string;
  readonly appId: string;
}

export interface SendKey {
  readonly templateId: string;
  readonly periodKey: string;
  readonly userId: string;
}

export type NewSend = Omit<EmailSendRecord, '_id' | 'template_id' | 'period_key' | 'user_id' | 'status' | 'attempts' | 'claimed_at' | 'updated_at'>;

const SEND_PREFIX = 'EMAIL_SEND';
const UNSUBSCRIBE_PREFIX = 'EMAIL_UNSUB';
/** The unsubscribe key of every email of the app. */
export const ALL_TEMPLATES = '*';

const sendSk = (key: SendKey) => `${SEND_PREFIX}#${key.templateId}#${key.periodKey}#${key.userId}`;
const unsubscribeSk = (templateId: string, email: string) => `${UNSUBSCRIBE_PREFIX}#${templateId}#${email.toLowerCase()}`;

export class EmailSendStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Claims the send (status `sending`): the claimed record, or the one a run before wrote. */
  async claim(tenant: EmailTenant, key: SendKey, fields: NewSend, now: Date): Promise<{ claimed: boolean; record: EmailSendRecord }> {
    const at = now.toISOString();
    const record: EmailSendRecord = {
      _id: `${key.templateId}/${key.periodKey}/${key.userId}`,
      template_id: key.templateId,
      period_key: key.periodKey,
      user_id: key.userId,
      ...fields,
      status: 'sending',
      attempts: 1,
      claimed_at: at,
      updated_at: at,
    };
    try {
      await this.documents.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: partitionOf(tenant), sk: sendSk(key), ...record },
          ConditionExpression: 'attribute_not_exists(sk)',
        }),
      );
      return { claimed: true, record };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    const existing = await this.read(tenant, key);
    if (!existing) throw new Error(`send ${record._id} was claimed and is gone`);
    return { claimed: false, record: existing };
  }

  /** Claims a `retrying` send again for one more attempt (false when another run took it first). */
  async reclaim(tenant: EmailTenant, record: EmailSendRecord, now: Date): Promise<EmailSendRecord | undefined> {
    const at = now.toISOString();
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: partitionOf(tenant), sk: sendSk(keyOf(record)) },
          UpdateExpression: 'SET #status = :sending, attempts = :next, claimed_at = :at, updated_at = :at',
          ConditionExpression: '#status = :retrying AND attempts = :attempts',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':sending': 'sending', ':retrying': 'retrying', ':attempts': record.attempts, ':next': record.attempts + 1, ':at': at },
        }),
      );
      return { ...record, status: 'sending', attempts: record.attempts + 1, claimed_at: at, updated_at: at };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  }

  /**
   * Records what became of a claimed send, only if it is still the claim this sender made (a sender
   * that took too long cannot overwrite what a later one decided).
   */
  async settle(
    tenant: EmailTenant,
    record: EmailSendRecord,
    outcome: { status: Exclude<EmailSendStatus, 'sending'>; message_id?: string; error_code?: string; error_message?: string; subject?: string },
    now: Date,
  ): Promise<boolean> {
    const set: Record<string, unknown> = { status: outcome.status, updated_at: now.toISOString() };
    for (const field of ['message_id', 'error_code', 'error_message', 'subject'] as const) if (outcome[field] !== undefined) set[field] = outcome[field];
    const names = Object.fromEntries(Object.keys(set).map((field, i) => [`#f${i}`, field]));
    const values = Object.fromEntries(Object.values(set).map((value, i) => [`:v${i}`, value]));
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: partitionOf(tenant), sk: sendSk(keyOf(record)) },
          UpdateExpression: `SET ${Object.keys(set)
            .map((_, i) => `#f${i} = :v${i}`)
            .join(', ')}`,
          ConditionExpression: '#claimStatus = :sending AND claimed_at = :claimed',
          ExpressionAttributeNames: { ...names, '#claimStatus': 'status' },
          ExpressionAttributeValues: { ...values, ':sending': 'sending', ':claimed': record.claimed_at },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** A provider's later report on a message it had accepted (a bounce, a complaint). */
  async markBounced(tenant: EmailTenant, key: SendKey, code: string, message: string, now: Date): Promise<boolean> {
    try {
      await this.documents.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: partitionOf(tenant), sk: sendSk(key) },
          UpdateExpression: 'SET #status = :bounced, error_code = :code, error_message = :message, updated_at = :at',
          ConditionExpression: '#status IN (:sent, :unconfirmed, :bounced)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':bounced': 'bounced',
            ':sent': 'sent',
            ':unconfirmed': 'unconfirmed',
            ':code': code,
            ':message': message.slice(0, 500),
            ':at': now.toISOString(),
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** The records of one template's period, by user id: one query, so a run skips who is done without a write each. */
  async periodRecords(tenant: EmailTenant, templateId: string, periodKey: string): Promise<Map<string, EmailSendRecord>> {
    const records = new Map<string, EmailSendRecord>();
    for await (const item of queryItems(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': partitionOf(tenant), ':prefix': `${SEND_PREFIX}#${templateId}#${periodKey}#` },
      ConsistentRead: true,
    })) {
      const parsed = EmailSendRecord.safeParse(item);
      if (parsed.success) records.set(parsed.data.user_id, parsed.data);
    }
    return records;
  }

  /** A template's sends, newest period first (`before`: the `next` cursor of the previous page). */
  async list(
    tenant: EmailTenant,
    templateId: string,
    options: { take: number; before?: string; status?: EmailSendStatus },
  ): Promise<{ items: EmailSendRecord[]; next?: string }> {
    const items: EmailSendRecord[] = [];
    const prefix = `${SEND_PREFIX}#${templateId}#`;
    const upper = options.before === undefined ? undefined : Buffer.from(options.before, 'base64url').toString('utf8');
    if (upper !== undefined && !upper.startsWith(prefix)) return { items };
    let lastSk = '';
    for await (const item of queryItems(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: upper === undefined ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk AND sk BETWEEN :prefix AND :upper',
      ...(options.status ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } } : {}),
      ExpressionAttributeValues: {
        ':pk': partitionOf(tenant),
        ':prefix': prefix,
        ...(upper === undefined ? {} : { ':upper': upper }),
        ...(options.status ? { ':status': options.status } : {}),
      },
      ScanIndexForward: false,
      ConsistentRead: true,
    })) {
      if (item['sk'] === upper) continue;
      const parsed = EmailSendRecord.safeParse(item);
      if (!parsed.success) continue;
      if (items.length === options.take) return { items, next: Buffer.from(lastSk, 'utf8').toString('base64url') };
      items.push(parsed.data);
      lastSk = String(item['sk']);
    }
    return { items };
  }

  /** Whether the address unsubscribed from this template or from all of the app's emails. */
  async isSuppressed(tenant: EmailTenant, templateId: string, email: string): Promise<boolean> {
    const keys = [templateId, ALL_TEMPLATES].map((id) => ({ pk: partitionOf(tenant), sk: unsubscribeSk(id, email) }));
    // batchGet retries what DynamoDB leaves unprocessed, and throws rather than answer for keys it did not read: an unsubscribe is never missed.
    const found = await batchGet(this.documents, this.tableName, keys);
    return found.length > 0;
  }

  async unsubscribe(tenant: EmailTenant, templateId: string, email: string, now: Date): Promise<void> {
    await this.documents.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: partitionOf(tenant),
          sk: unsubscribeSk(templateId, email),
          template_id: templateId,
          email: email.toLowerCase(),
          unsubscribed_at: now.toISOString(),
        },
      }),
    );
  }

  private async read(tenant: EmailTenant, key: SendKey): Promise<EmailSendRecord | undefined> {
    const answer = await this.documents.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: partitionOf(tenant), sk: sendSk(key) }, ConsistentRead: true }),
    );
    return answer.Item ? EmailSendRecord.parse(answer.Item) : undefined;
  }
}

const partitionOf = (tenant: EmailTenant) => appRulesPartition(tenant.orgId, tenant.appId);
const keyOf = (record: EmailSendRecord): SendKey => ({ templateId: record.template_id, periodKey: record.period_key, userId: record.user_id });
