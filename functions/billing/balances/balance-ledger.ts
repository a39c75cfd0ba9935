import { createHash } from 'node:crypto';
import { Decimal } from '../../../values/decimal';
import { ServiceUnavailableError, ValidationError } from '../../shared/errors';
import type { BalanceTransactionCreate } from '../../../schemas/billing/balance';
import { drawMarkerKey, transactionMarkerKey, type BalanceTenant, type Key } from './balance-keys';
import {
  acceptTransaction,
  advance,
  drawUsage,
  EMPTY_BALANCE,
  figuresOf,
  signedAmount,
  type BalanceFigures,
  type BalanceState,
  type LedgerEntry,
  type Transition,
} from './balance-state';
import type { BalanceStore, StoredBalance, StoredEntry } from './balance-store';

/**
 * Credits and balances of subscriptions: the operations the HTTP API and the billing run call.
 * Every change reads the balance, computes the next state (balance-state.ts) and commits it with a
 * condition on the sequence_id it read; a concurrent change makes the commit fail and the change is
 * recomputed from the fresh balance, so no update is ever lost.
 */

/** Activations/expiries committed per transaction, leaving room for the marker, the balance, the index and the change (DynamoDB: 100 items). */
const CATCH_UP_CHUNK = 90;
/** Pending transactions plus open credit lots per subscription: the balance item stays far below DynamoDB's 400 KB. */
export const MAX_OPEN_ITEMS = 500;
/** Attempts of a contended change before a 503 (retryable); backoff is jittered and capped. */
const MAX_ATTEMPTS = 100;
const BACKOFF_BASE_MS = 5;
const BACKOFF_CAP_MS = 200;

export interface UsageDraw {
  readonly companyId: string;
  readonly subscriptionId: string;
  /** Identifies the billing report (meter × subscription × window); with the version, the draw's idempotency key. */
  readonly reportKey: string;
  readonly reportVersion: number;
  /** What the report version bills: a correction version draws its delta (negative gives back). */
  readonly amount: Decimal;
}

export interface UsageDrawResult {
  /** The balance right before the draw (activations and expiries up to now applied). */
  readonly beginning: BalanceFigures;
  readonly ending: BalanceFigures;
  /** The report's `balance_changes`: the signed change of the draw (empty for a zero amount). */
  readonly balanceChanges: readonly { readonly amount: Decimal }[];
  /** True when this report version had already drawn: the recorded result is returned, nothing changes. */
  readonly duplicate: boolean;
}

export interface SubscriptionFigures {
  readonly companyId: string;
  readonly subscriptionId: string;
  readonly figures: BalanceFigures;
}

export interface EntryPage {
  readonly entries: readonly StoredEntry[];
  /** The `before_id` of the next page, when there may be one. */
  readonly nextBeforeId?: number;
}

export interface BalanceLedgerOptions {
  readonly now?: () => Date;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** `retry: 'now'` after progress (a catch-up chunk committed, a racing duplicate), `'later'` after losing a race (backoff). */
type Attempt<T> = { done: T } | { retry: 'now' | 'later' };

export class BalanceLedger {
  private readonly now: () => Date;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly store: BalanceStore,
    options: BalanceLedgerOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * Records a balance transaction once. The same transaction_id again (app-wide) with an identical
   * body is a no-op (`duplicate`); with a different body it is a 400 naming transaction_id.
   */
  async recordTransaction(tenant: BalanceTenant, input: BalanceTransactionCreate): Promise<'recorded' | 'duplicate'> {
    const markerKey = transactionMarkerKey(tenant, input.transaction_id);
    const fingerprint = transactionFingerprint(input);
    return this.retrying<'recorded' | 'duplicate'>(async () => {
      const marker = await this.store.readMarker(markerKey);
      if (marker) {
        if (marker.fingerprint === fingerprint) return { done: 'duplicate' as const };
        throw new ValidationError(`transaction_id ${input.transaction_id} was already recorded with a different body`, [
          { field: 'transaction_id', reason: 'was already used for a different transaction (ids are unique per app)' },
        ]);
      }
      const now = this.now();
      const activeAt = input.active_at ?? now.toISOString();
      if (input.expire_at && Date.parse(input.expire_at) <= Date.parse(activeAt)) {
        throw new ValidationError('expire_at must be after active_at', [
          { field: 'expire_at', reason: 'must be after active_at (the time of the request when active_at is omitted)' },
        ]);
      }
      const stored = await this.store.readBalance(tenant, input.subscription_id);
      assertCompany(stored, input.company_id);
      return this.change(tenant, input.company_id, input.subscription_id, stored, now, (state) => {
        const transition = acceptTransaction(
          state,
          {
            transactionId: input.transaction_id,
            type: input.type,
            amount: signedAmount(input.type, input.amount),
            activeAt,
            ...(input.expire_at ? { expireAt: input.expire_at } : {}),
            ...(input.description ? { description: input.description } : {}),
          },
          now,
        );
        if (transition.state.pending.length + transition.state.lots.length > MAX_OPEN_ITEMS) {
          throw new ValidationError(`Subscription ${input.subscription_id} has ${MAX_OPEN_ITEMS} pending transactions and unexpired credits already`, [
            { field: 'subscription_id', reason: `at most ${MAX_OPEN_ITEMS} pending transactions plus unexpired credits per subscription` },
          ]);
        }
        const entry = transition.entries[0]!;
        return {
          transition,
          marker: {
            key: markerKey,
            attributes: { fingerprint, subscription_id: input.subscription_id, sequence_id: entry.sequenceId, recorded_at: now.toISOString() },
          },
          result: 'recorded' as const,
        };
      });
    });
  }

  /**
   * Draws a billing report version's usage amount from the subscription's balance, once per report
   * key and version (a retry returns the recorded result). The balance is created if the
   * subscription has none, and may go negative (usage beyond the credits).
   */
  async drawUsage(tenant: BalanceTenant, draw: UsageDraw): Promise<UsageDrawResult> {
    if (!Number.isSafeInteger(draw.reportVersion) || draw.reportVersion < 0)
      throw new RangeError(`report version ${draw.reportVersion} is not a non-negative integer`);
    const markerKey = drawMarkerKey(tenant, draw.subscriptionId, draw.reportKey, draw.reportVersion);
    return this.retrying(async () => {
      const marker = await this.store.readMarker(markerKey);
      if (marker) return { done: recordedDraw(marker, draw) };
      const now = this.now();
      const stored = await this.store.readBalance(tenant, draw.subscriptionId);
      assertCompany(stored, draw.companyId);
      if (draw.amount.isZero()) {
        const figures = figuresOf(advance(stored?.state ?? EMPTY_BALANCE, now).state);
        return { done: { beginning: figures, ending: figures, balanceChanges: [], duplicate: false } };
      }
      return this.change(tenant, draw.companyId, draw.subscriptionId, stored, now, (state) => {
        const transition = drawUsage(state, draw, now);
        const result: UsageDrawResult = {
          beginning: figuresOf(state),
          ending: figuresOf(transition.state),
          balanceChanges: [{ amount: transition.entries[0]!.amount }],
          duplicate: false,
        };
        return { transition, marker: { key: markerKey, attributes: drawMarker(draw, result, now) }, result };
      });
    });
  }

  /** A subscription's balance as of now (activations and expiries due are applied to what is shown). */
  async balance(tenant: BalanceTenant, subscriptionId: string): Promise<SubscriptionFigures | undefined> {
    const stored = await this.store.readBalance(tenant, subscriptionId);
    if (!stored) return undefined;
    return { companyId: stored.companyId, subscriptionId: stored.subscriptionId, figures: figuresOf(advance(stored.state, this.now()).state) };
  }

  /** The balances of a company's subscriptions, in subscription id order. */
  async balancesOfCompany(tenant: BalanceTenant, companyId: string): Promise<SubscriptionFigures[]> {
    const ids = await this.store.subscriptionsOfCompany(tenant, companyId);
    const found = await Promise.all(ids.map((id) => this.balance(tenant, id)));
    return found.filter((b): b is SubscriptionFigures => b !== undefined && b.companyId === companyId);
  }

  /**
   * The ledger of a subscription, newest first, `take` per page, paged with `before_id` (a
   * sequence_id). Activations and expiries that are due but not yet written by a change are listed
   * as they will be written (same sequence ids), so the listing always matches the balance shown.
   */
  async entries(tenant: BalanceTenant, subscriptionId: string, page: { take: number; beforeId?: number }): Promise<EntryPage> {
    const stored = await this.store.readBalance(tenant, subscriptionId);
    if (!stored) return { entries: [] };
    const before = page.beforeId ?? Number.POSITIVE_INFINITY;
    const due = advance(stored.state, this.now())
      .entries.filter((e) => e.sequenceId < before)
      .reverse()
      .map((e): StoredEntry => ({ ...e, companyId: stored.companyId, subscriptionId: stored.subscriptionId }));
    const olderThan = Math.min(before, stored.state.sequenceId + 1);
    // One more than asked: tells whether another page follows.
    const wanted = page.take + 1 - Math.min(due.length, page.take + 1);
    const older = wanted > 0 ? await this.store.entries(tenant, subscriptionId, { take: wanted, beforeSequence: olderThan }) : [];
    const all = [...due, ...older];
    const entries = all.slice(0, page.take);
    return all.length > page.take ? { entries, nextBeforeId: entries[entries.length - 1]!.sequenceId } : { entries };
  }

  /**
   * One change: catch up on due activations/expiries (in chunks if there are many), apply `decide`,
   * commit conditioned on the sequence read. `decide` may throw (nothing is written then).
   */
  private async change<T>(
    tenant: BalanceTenant,
    companyId: string,
    subscriptionId: string,
    stored: StoredBalance | undefined,
    now: Date,
    decide: (state: BalanceState) => { transition: Transition; marker: { key: Key; attributes: Record<string, unknown> }; result: T },
  ): Promise<Attempt<T>> {
    const expectedSequence = stored?.state.sequenceId;
    const caughtUp = advance(stored?.state ?? EMPTY_BALANCE, now, CATCH_UP_CHUNK);
    if (!caughtUp.done) {
      const outcome = await this.store.commit({ tenant, companyId, subscriptionId, expectedSequence, next: caughtUp.state, entries: caughtUp.entries, now });
      return { retry: outcome === 'committed' ? 'now' : 'later' };
    }
    const decision = decide(caughtUp.state);
    const entries: LedgerEntry[] = [...caughtUp.entries, ...decision.transition.entries];
    const outcome = await this.store.commit({
      tenant,
      companyId,
      subscriptionId,
      expectedSequence,
      next: decision.transition.state,
      entries,
      marker: decision.marker,
      now,
    });
    if (outcome === 'committed') return { done: decision.result };
    // marker-exists: the same change won a race; the next attempt finds the marker and answers from it.
    return { retry: outcome === 'marker-exists' ? 'now' : 'later' };
  }

  private async retrying<T>(run: () => Promise<Attempt<T>>): Promise<T> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const outcome = await run();
      if ('done' in outcome) return outcome.done;
      if (outcome.retry === 'later') await this.sleep(Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 10)));
    }
    throw new ServiceUnavailableError('The balance is being changed concurrently; retry');
  }
}

/** Identity of a transaction body for dedup: exact amount text and normalised times, so `10` and `"10.00"` match. */
export function transactionFingerprint(input: BalanceTransactionCreate): string {
  const canonical = JSON.stringify([
    input.company_id,
    input.subscription_id,
    input.transaction_id,
    input.type,
    input.amount.toString(),
    input.description ?? null,
    input.active_at ?? null,
    input.expire_at ?? null,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

function assertCompany(stored: StoredBalance | undefined, companyId: string): void {
  if (stored && stored.companyId !== companyId) {
    throw new ValidationError(`Subscription ${stored.subscriptionId} belongs to company ${stored.companyId}`, [
      { field: 'company_id', reason: `does not match the subscription's company ${stored.companyId}` },
    ]);
  }
}

const figuresText = (f: BalanceFigures) => ({
  sequence_id: f.sequenceId,
  current_balance: f.current.toString(),
  pending_activity: f.pending.toString(),
  available_balance: f.available.toString(),
});

function figuresFromText(item: Record<string, unknown>): BalanceFigures {
  return {
    sequenceId: Number(item.sequence_id),
    current: Decimal.from(String(item.current_balance)),
    pending: Decimal.from(String(item.pending_activity)),
    available: Decimal.from(String(item.available_balance)),
  };
}

function drawMarker(draw: UsageDraw, result: UsageDrawResult, now: Date): Record<string, unknown> {
  return {
    report_key: draw.reportKey,
    report_version: draw.reportVersion,
    amount: draw.amount.toString(),
    recorded_at: now.toISOString(),
    beginning: figuresText(result.beginning),
    ending: figuresText(result.ending),
    balance_changes: result.balanceChanges.map((c) => c.amount.toString()),
  };
}

function recordedDraw(marker: Record<string, unknown>, draw: UsageDraw): UsageDrawResult {
  if (Decimal.from(String(marker.amount)).compare(draw.amount) !== 0) {
    throw new ValidationError(`Report ${draw.reportKey} version ${draw.reportVersion} already drew ${String(marker.amount)}`, [
      { field: 'amount', reason: `differs from the ${String(marker.amount)} already drawn for this report version (a correction is a new version)` },
    ]);
  }
  return {
    beginning: figuresFromText(marker.beginning as Record<string, unknown>),
    ending: figuresFromText(marker.ending as Record<string, unknown>),
    balanceChanges: (marker.balance_changes as string[]).map((amount) => ({ amount: Decimal.from(amount) })),
    duplicate: true,
  };
}
