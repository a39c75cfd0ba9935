/**
 * Key layout of balances in the billing table. One partition per subscription holds its balance, its
 * ledger and its idempotency markers; a small index partition per company lists its subscriptions.
 *
 *   pk BALANCE#<org>#<app>#<subscription>   sk BALANCE                 the balance (figures, pending, lots, sequence_id)
 *                                           sk ENTRY#<seq, 12 digits>  one ledger entry per change
 *                                           sk DRAW#<report key>#v<n>  a billing report's usage draw (dedup + its result)
 *   pk BALANCE_TXN#<org>#<app>#<transaction_id>  sk TXN              a transaction_id seen in the app (dedup, app-wide)
 *   pk BALANCES#<org>#<app>#COMPANY#<company>  sk SUB#<subscription>   the company's subscriptions with a balance
 *
 * Caller-chosen ids are URI-encoded where they sit between `#` separators, so an id containing `#`
 * cannot reach another tenant's or subscription's keys. Org and app ids never contain `#`.
 */

export interface BalanceTenant {
  readonly orgId: string;
  readonly appId: string;
}

export interface Key {
  readonly pk: string;
  readonly sk: string;
}

const part = (id: string) => encodeURIComponent(id);

export const balancePartition = (t: BalanceTenant, subscriptionId: string) => `BALANCE#${t.orgId}#${t.appId}#${part(subscriptionId)}`;

export const balanceKey = (t: BalanceTenant, subscriptionId: string): Key => ({ pk: balancePartition(t, subscriptionId), sk: 'BALANCE' });

export const ENTRY_PREFIX = 'ENTRY#';
/** Zero-padded so entries sort by sequence. */
export const entrySortKey = (sequenceId: number) => `${ENTRY_PREFIX}${String(sequenceId).padStart(12, '0')}`;

/** App-wide: a transaction_id names one transaction of the app, whichever subscription it was sent for. */
export const transactionMarkerKey = (t: BalanceTenant, transactionId: string): Key => ({
  pk: `BALANCE_TXN#${t.orgId}#${t.appId}#${part(transactionId)}`,
  sk: 'TXN',
});

export const drawMarkerKey = (t: BalanceTenant, subscriptionId: string, reportKey: string, reportVersion: number): Key => ({
  pk: balancePartition(t, subscriptionId),
  sk: `DRAW#${part(reportKey)}#v${reportVersion}`,
});

export const companyIndexPartition = (t: BalanceTenant, companyId: string) => `BALANCES#${t.orgId}#${t.appId}#COMPANY#${part(companyId)}`;

export const companyIndexKey = (t: BalanceTenant, companyId: string, subscriptionId: string): Key => ({
  pk: companyIndexPartition(t, companyId),
  sk: `SUB#${part(subscriptionId)}`,
});
