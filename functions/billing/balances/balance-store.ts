import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Decimal } from '../../../values/decimal';
import type { BalanceEntryType, BalanceTransactionType } from '../../../schemas/billing/balance';
import { balanceKey, balancePartition, companyIndexKey, companyIndexPartition, ENTRY_PREFIX, entrySortKey, type BalanceTenant, type Key } from './balance-keys';
import type { BalanceFigures, BalanceState, LedgerEntry } from './balance-state';
import { queryAll } from '../../shared/aws/query-pages';

/**
 * Persistence of balances in the billing table (layout: balance-keys.ts). Amounts are stored as
 * decimal strings, never numbers, so nothing is rounded on the way through DynamoDB. A commit is one
 * TransactWrite: the idempotency marker (put if absent), the balance (conditioned on the
 * `sequence_id` it was computed from) and the ledger entries, all or nothing.
 */

export interface StoredBalance {
  readonly companyId: string;
  readonly subscriptionId: string;
  readonly state: BalanceState;
}

export interface CommitRequest {
  readonly tenant: BalanceTenant;
  readonly companyId: string;
  readonly subscriptionId: string;
  /** The sequence_id the change was computed from; undefined when no balance item existed. */
  readonly expectedSequence: number | undefined;
  readonly next: BalanceState;
  readonly entries: readonly LedgerEntry[];
  /** Written only if absent (idempotency of the change). */
  readonly marker?: { readonly key: Key; readonly attributes: Record<string, unknown> };
  readonly now: Date;
}

/** `conflict`: the balance changed since it was read; `marker-exists`: the same change was committed by someone else. */
export type CommitOutcome = 'committed' | 'conflict' | 'marker-exists';

export interface EntryPageRequest {
  readonly take: number;
  /** Only entries with a smaller sequence_id. */
  readonly beforeSequence?: number;
}

/** A ledger entry as stored, with its subscription. */
export interface StoredEntry extends LedgerEntry {
  readonly companyId: string;
  readonly subscriptionId: string;
}

export class BalanceStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async readBalance(tenant: BalanceTenant, subscriptionId: string): Promise<StoredBalance | undefined> {
    const { Item } = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: balanceKey(tenant, subscriptionId), ConsistentRead: true }));
    return Item ? balanceFromItem(Item) : undefined;
  }

  async readMarker(key: Key): Promise<Record<string, unknown> | undefined> {
    const { Item } = await this.documents.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    return Item;
  }

  async commit(request: CommitRequest): Promise<CommitOutcome> {
    const { tenant, companyId, subscriptionId, next, now } = request;
    const created = request.expectedSequence === undefined;
    const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [];
    if (request.marker) {
      items.push({
        Put: { TableName: this.tableName, Item: { ...request.marker.attributes, ...request.marker.key }, ConditionExpression: 'attribute_not_exists(pk)' },
      });
    }
    const balanceIndex = items.length;
    items.push({
      Put: {
        TableName: this.tableName,
        Item: { ...balanceKey(tenant, subscriptionId), ...balanceItem(tenant, companyId, subscriptionId, next), updated_at: now.toISOString() },
        ConditionExpression: created ? 'attribute_not_exists(pk)' : 'sequence_id = :seq',
        ExpressionAttributeValues: created ? undefined : { ':seq': request.expectedSequence },
      },
    });
    if (created) {
      items.push({
        Put: {
          TableName: this.tableName,
          Item: { ...companyIndexKey(tenant, companyId, subscriptionId), subscription_id: subscriptionId, company_id: companyId },
        },
      });
    }
    const pk = balancePartition(tenant, subscriptionId);
    for (const entry of request.entries) {
      items.push({ Put: { TableName: this.tableName, Item: { pk, sk: entrySortKey(entry.sequenceId), ...entryItem(companyId, subscriptionId, entry) } } });
    }
    try {
      await this.documents.send(new TransactWriteCommand({ TransactItems: items }));
      return 'committed';
    } catch (error) {
      if (error instanceof TransactionCanceledException) {
        const reasons = error.CancellationReasons ?? [];
        if (request.marker && reasons[0]?.Code === 'ConditionalCheckFailed') return 'marker-exists';
        if (reasons.some((r, i) => r.Code === 'TransactionConflict' || (i === balanceIndex && r.Code === 'ConditionalCheckFailed'))) return 'conflict';
      }
      if ((error as Error).name === 'TransactionConflictException') return 'conflict';
      throw error;
    }
  }

  /** Stored ledger entries, newest first. */
  async entries(tenant: BalanceTenant, subscriptionId: string, page: EntryPageRequest): Promise<StoredEntry[]> {
    if (page.beforeSequence !== undefined && page.beforeSequence <= 1) return [];
    const upper = page.beforeSequence === undefined ? undefined : entrySortKey(page.beforeSequence - 1);
    const { Items = [] } = await this.documents.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: upper === undefined ? 'pk = :pk AND begins_with(sk, :lo)' : 'pk = :pk AND sk BETWEEN :lo AND :hi',
        ExpressionAttributeValues: { ':pk': balancePartition(tenant, subscriptionId), ':lo': ENTRY_PREFIX, ...(upper === undefined ? {} : { ':hi': upper }) },
        ScanIndexForward: false,
        Limit: page.take,
        ConsistentRead: true,
      }),
    );
    return Items.map(entryFromItem);
  }

  /** Subscriptions of a company that have a balance, in id order. */
  async subscriptionsOfCompany(tenant: BalanceTenant, companyId: string): Promise<string[]> {
    const items = await queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': companyIndexPartition(tenant, companyId) },
      ConsistentRead: true,
    });
    return items.map((item) => String(item['subscription_id']));
  }
}

function balanceItem(tenant: BalanceTenant, companyId: string, subscriptionId: string, state: BalanceState): Record<string, unknown> {
  return {
    org_id: tenant.orgId,
    app_id: tenant.appId,
    company_id: companyId,
    subscription_id: subscriptionId,
    sequence_id: state.sequenceId,
    current_balance: state.current.toString(),
    pending: state.pending.map((p) => ({
      transaction_id: p.transactionId,
      type: p.type,
      amount: p.amount.toString(),
      active_at: p.activeAt,
      ...(p.expireAt ? { expire_at: p.expireAt } : {}),
    })),
    lots: state.lots.map((l) => ({ transaction_id: l.transactionId, remaining: l.remaining.toString(), expire_at: l.expireAt })),
  };
}

function balanceFromItem(item: Record<string, unknown>): StoredBalance {
  const pending = (item.pending as Record<string, string>[] | undefined) ?? [];
  const lots = (item.lots as Record<string, string>[] | undefined) ?? [];
  return {
    companyId: String(item.company_id),
    subscriptionId: String(item.subscription_id),
    state: {
      sequenceId: Number(item.sequence_id),
      current: Decimal.from(String(item.current_balance)),
      pending: pending.map((p) => ({
        transactionId: p.transaction_id!,
        type: p.type as BalanceTransactionType,
        amount: Decimal.from(p.amount!),
        activeAt: p.active_at!,
        ...(p.expire_at ? { expireAt: p.expire_at } : {}),
      })),
      lots: lots.map((l) => ({ transactionId: l.transaction_id!, remaining: Decimal.from(l.remaining!), expireAt: l.expire_at! })),
    },
  };
}

const figuresItem = (f: BalanceFigures) => ({
  current_balance: f.current.toString(),
  pending_activity: f.pending.toString(),
  available_balance: f.available.toString(),
});

function entryItem(companyId: string, subscriptionId: string, e: LedgerEntry): Record<string, unknown> {
  const optional = {
    transaction_id: e.transactionId,
    type: e.type,
    report_key: e.reportKey,
    report_version: e.reportVersion,
    description: e.description,
    active_at: e.activeAt,
    expire_at: e.expireAt,
  };
  return {
    company_id: companyId,
    subscription_id: subscriptionId,
    sequence_id: e.sequenceId,
    entry_type: e.entryType,
    amount: e.amount.toString(),
    effective_at: e.effectiveAt,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    ...figuresItem(e.after),
  };
}

function entryFromItem(item: Record<string, unknown>): StoredEntry {
  const text = (name: string) => (item[name] === undefined ? undefined : String(item[name]));
  const optional = {
    transactionId: text('transaction_id'),
    type: text('type') as BalanceTransactionType | undefined,
    reportKey: text('report_key'),
    reportVersion: item.report_version === undefined ? undefined : Number(item.report_version),
    description: text('description'),
    activeAt: text('active_at'),
    expireAt: text('expire_at'),
  };
  const sequenceId = Number(item.sequence_id);
  return {
    companyId: String(item.company_id),
    subscriptionId: String(item.subscription_id),
    sequenceId,
    entryType: item.entry_type as BalanceEntryType,
    amount: Decimal.from(String(item.amount)),
    effectiveAt: String(item.effective_at),
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    after: {
      sequenceId,
      current: Decimal.from(String(item.current_balance)),
      pending: Decimal.from(String(item.pending_activity)),
      available: Decimal.from(String(item.available_balance)),
    },
  };
}
