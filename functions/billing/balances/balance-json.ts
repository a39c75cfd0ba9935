import type { BalanceEntry, CreditBalance, SubscriptionBalance } from '../../../schemas/billing/balance';
import type { SubscriptionFigures } from './balance-ledger';
import type { BalanceFigures } from './balance-state';
import type { StoredEntry } from './balance-store';

/**
 * Balances as JSON. The spec's CreditBalance figures are numbers: each is the double nearest to the
 * exact decimal (exact for every amount of up to 15 significant digits); the ledger keeps the exact
 * decimal text.
 */

export function creditBalanceJson(f: BalanceFigures): CreditBalance {
  return {
    sequence_id: f.sequenceId,
    current_balance: f.current.toNumber(),
    pending_activity: f.pending.toNumber(),
    available_balance: f.available.toNumber(),
  };
}

export function subscriptionBalanceJson(b: SubscriptionFigures): SubscriptionBalance {
  return { company_id: b.companyId, subscription_id: b.subscriptionId, ...creditBalanceJson(b.figures) };
}

export function balanceEntryJson(e: StoredEntry): BalanceEntry {
  const { sequence_id: _sequence, ...after } = creditBalanceJson(e.after);
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
    sequence_id: e.sequenceId,
    entry_type: e.entryType,
    company_id: e.companyId,
    subscription_id: e.subscriptionId,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    amount: e.amount.toNumber(),
    effective_at: e.effectiveAt,
    ...after,
  };
}
