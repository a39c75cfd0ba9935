import { Decimal } from '../../../values/decimal';
import type { BalanceEntryType, BalanceTransactionType } from '../../../schemas/billing/balance';

/**
 * The arithmetic of one subscription's credit balance, with no I/O: the store persists what these
 * functions return. Everything is exact (Decimal), and time only moves through `now` arguments, so
 * a state advanced to a moment is the same whoever computes it (a read, or the next write).
 *
 * - current balance: the sum of the posted (active) amounts, minus expired remainders and drawn usage.
 * - pending activity: the signed sum of the transactions whose `active_at` is still in the future.
 * - available balance: current + pending (the original service's definition).
 * - Lots: a positive amount with `expire_at` keeps a lot of what is unused of it. Spending (debits,
 *   negative adjustments, usage) takes from the lot that expires first; at `expire_at` the lot's
 *   remainder leaves the current balance (an `expiry` entry). A credit posted while the balance is
 *   negative first covers that deficit, and only the rest can expire.
 * - Every change is one ledger entry and moves `sequenceId` up by one.
 */

export interface PendingTransaction {
  readonly transactionId: string;
  readonly type: BalanceTransactionType;
  /** The signed effect: debits are negative. */
  readonly amount: Decimal;
  readonly activeAt: string;
  readonly expireAt?: string;
}

export interface CreditLot {
  readonly transactionId: string;
  readonly remaining: Decimal;
  readonly expireAt: string;
}

export interface BalanceState {
  readonly sequenceId: number;
  readonly current: Decimal;
  /** Not yet active, in acceptance order. */
  readonly pending: readonly PendingTransaction[];
  /** Unused parts of expiring credits, each > 0. */
  readonly lots: readonly CreditLot[];
}

export interface BalanceFigures {
  readonly sequenceId: number;
  readonly current: Decimal;
  readonly pending: Decimal;
  readonly available: Decimal;
}

export interface LedgerEntry {
  readonly sequenceId: number;
  readonly entryType: BalanceEntryType;
  /** Signed effect of the entry (on pending for a transaction accepted as pending, else on current). */
  readonly amount: Decimal;
  /** When the change took effect: acceptance time, `active_at` for activations, `expire_at` for expiries. */
  readonly effectiveAt: string;
  readonly transactionId?: string;
  readonly type?: BalanceTransactionType;
  readonly reportKey?: string;
  readonly reportVersion?: number;
  readonly description?: string;
  readonly activeAt?: string;
  readonly expireAt?: string;
  readonly after: BalanceFigures;
}

export interface Transition {
  readonly state: BalanceState;
  readonly entries: readonly LedgerEntry[];
}

/** A transaction to post, its amount already signed by type. */
export interface SignedTransaction {
  readonly transactionId: string;
  readonly type: BalanceTransactionType;
  readonly amount: Decimal;
  readonly activeAt: string;
  readonly expireAt?: string;
  readonly description?: string;
}

export const EMPTY_BALANCE: BalanceState = { sequenceId: 0, current: Decimal.ZERO, pending: [], lots: [] };

/** The signed effect of a transaction body's amount: debits subtract, adjustments carry their sign. */
export function signedAmount(type: BalanceTransactionType, amount: Decimal): Decimal {
  return type === 'debit' ? amount.negated() : amount;
}

export function figuresOf(state: BalanceState): BalanceFigures {
  const pending = Decimal.sum(state.pending.map((p) => p.amount));
  return { sequenceId: state.sequenceId, current: state.current, pending, available: state.current.plus(pending) };
}

const ms = (iso: string) => Date.parse(iso);

/**
 * Applies every activation and expiry due at `now`, in time order (at equal times an expiry comes
 * first: `expire_at` is the end of a credit, `active_at` the start of another). At most `maxEntries`
 * are applied; `done` says whether the state is now fully up to date.
 */
export function advance(state: BalanceState, now: Date, maxEntries = Number.POSITIVE_INFINITY): Transition & { done: boolean } {
  const nowMs = now.getTime();
  let s = state;
  const entries: LedgerEntry[] = [];
  for (;;) {
    const lot = firstExpiring(s.lots);
    const activation = firstActivation(s.pending);
    const lotDue = lot !== undefined && ms(lot.expireAt) <= nowMs;
    const activationDue = activation !== undefined && ms(activation.activeAt) <= nowMs;
    if (!lotDue && !activationDue) return { state: s, entries, done: true };
    if (entries.length >= maxEntries) return { state: s, entries, done: false };
    if (lotDue && (!activationDue || ms(lot.expireAt) <= ms(activation.activeAt))) {
      s = { ...s, sequenceId: s.sequenceId + 1, current: s.current.minus(lot.remaining), lots: s.lots.filter((l) => l !== lot) };
      entries.push({
        sequenceId: s.sequenceId,
        entryType: 'expiry',
        amount: lot.remaining.negated(),
        effectiveAt: lot.expireAt,
        transactionId: lot.transactionId,
        expireAt: lot.expireAt,
        after: figuresOf(s),
      });
    } else {
      const due = activation!;
      const posted = post({ ...s, pending: s.pending.filter((p) => p !== due) }, due.amount, due.transactionId, due.expireAt);
      s = { ...posted, sequenceId: s.sequenceId + 1 };
      entries.push({
        sequenceId: s.sequenceId,
        entryType: 'activation',
        amount: due.amount,
        effectiveAt: due.activeAt,
        transactionId: due.transactionId,
        type: due.type,
        activeAt: due.activeAt,
        ...(due.expireAt ? { expireAt: due.expireAt } : {}),
        after: figuresOf(s),
      });
    }
  }
}

/**
 * Accepts a transaction at `now`: posted at once when `active_at` has come (effective now: history is
 * not rewritten for a back-dated transaction), else pending until it. The state must already be
 * advanced to `now`; a credit whose `expire_at` has also passed expires in the same step.
 */
export function acceptTransaction(state: BalanceState, tx: SignedTransaction, now: Date): Transition {
  const common = {
    entryType: 'transaction' as const,
    amount: tx.amount,
    effectiveAt: now.toISOString(),
    transactionId: tx.transactionId,
    type: tx.type,
    activeAt: tx.activeAt,
    ...(tx.expireAt ? { expireAt: tx.expireAt } : {}),
    ...(tx.description ? { description: tx.description } : {}),
  };
  let next: BalanceState;
  if (ms(tx.activeAt) > now.getTime()) {
    const pending: PendingTransaction = {
      transactionId: tx.transactionId,
      type: tx.type,
      amount: tx.amount,
      activeAt: tx.activeAt,
      ...(tx.expireAt ? { expireAt: tx.expireAt } : {}),
    };
    next = { ...state, sequenceId: state.sequenceId + 1, pending: [...state.pending, pending] };
  } else {
    next = { ...post(state, tx.amount, tx.transactionId, tx.expireAt), sequenceId: state.sequenceId + 1 };
  }
  const accepted: LedgerEntry = { ...common, sequenceId: next.sequenceId, after: figuresOf(next) };
  const rest = advance(next, now);
  return { state: rest.state, entries: [accepted, ...rest.entries] };
}

/**
 * Usage of a billing report drawn from the balance at `now` (state already advanced): a positive
 * amount is spent like a debit (expiring lots first; the balance may go negative), a negative one (a
 * downward correction) is given back to the current balance.
 */
export function drawUsage(state: BalanceState, draw: { reportKey: string; reportVersion: number; amount: Decimal }, now: Date): Transition {
  const change = draw.amount.negated();
  const next = { ...post(state, change), sequenceId: state.sequenceId + 1 };
  return {
    state: next,
    entries: [
      {
        sequenceId: next.sequenceId,
        entryType: 'usage',
        amount: change,
        effectiveAt: now.toISOString(),
        reportKey: draw.reportKey,
        reportVersion: draw.reportVersion,
        after: figuresOf(next),
      },
    ],
  };
}

/** Moves `amount` into the current balance: spending takes from lots, an expiring credit opens one. */
function post(state: BalanceState, amount: Decimal, transactionId?: string, expireAt?: string): BalanceState {
  if (amount.isNegative()) return { ...state, current: state.current.plus(amount), lots: spend(state.lots, amount.negated()) };
  const deficit = state.current.isNegative() ? state.current.negated() : Decimal.ZERO;
  const current = state.current.plus(amount);
  if (expireAt === undefined || transactionId === undefined) return { ...state, current };
  const unused = amount.minus(amount.min(deficit));
  if (unused.isZero()) return { ...state, current };
  return { ...state, current, lots: [...state.lots, { transactionId, remaining: unused, expireAt }] };
}

/** Takes `amount` from the lots, earliest expiry first; what the lots cannot cover comes from the rest of the balance. */
function spend(lots: readonly CreditLot[], amount: Decimal): CreditLot[] {
  let left = amount;
  const result: CreditLot[] = [];
  for (const lot of [...lots].sort(byExpiry)) {
    if (left.isZero()) {
      result.push(lot);
      continue;
    }
    const taken = lot.remaining.min(left);
    left = left.minus(taken);
    const remaining = lot.remaining.minus(taken);
    if (!remaining.isZero()) result.push({ ...lot, remaining });
  }
  return result;
}

function byExpiry(a: CreditLot, b: CreditLot): number {
  return ms(a.expireAt) - ms(b.expireAt) || (a.transactionId < b.transactionId ? -1 : a.transactionId > b.transactionId ? 1 : 0);
}

function firstExpiring(lots: readonly CreditLot[]): CreditLot | undefined {
  let first: CreditLot | undefined;
  for (const lot of lots) if (!first || byExpiry(lot, first) < 0) first = lot;
  return first;
}

/** Earliest `active_at`; at equal times the one accepted first. */
function firstActivation(pending: readonly PendingTransaction[]): PendingTransaction | undefined {
  let first: PendingTransaction | undefined;
  for (const p of pending) if (!first || ms(p.activeAt) < ms(first.activeAt)) first = p;
  return first;
}
