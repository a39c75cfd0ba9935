import type { ManagementCaller } from '../management-tokens/management-auth';
import { contextOf, listOptions, readObjectBody } from '../resources/crud-operations';
import { ValidationError } from '../shared/errors';
import type { Operation } from '../shared/http/handler';
import { BalanceTransactionCreate, MAX_BALANCE_ID_LENGTH } from '../../schemas/billing/balance';
import { balanceEntryJson, subscriptionBalanceJson } from './balances/balance-json';
import type { BalanceLedger } from './balances/balance-ledger';
import { parseBody } from '../shared/invalid-input';

export interface BalanceOperationDeps {
  readonly balances: BalanceLedger;
  /** A balance decides governance `balance` rules: a top-up lifts their block at once rather than at the next scheduled refresh. */
  readonly onGovernanceChange?: (orgId: string, appId: string) => Promise<void>;
  readonly now?: () => Date;
}

type BalanceOperation = Operation<ManagementCaller | undefined>;

/**
 * The HTTP side of credits and balances, for the token's org and app:
 * - POST /~/billing/reports/balance_transactions → 204 (also for a repeated identical transaction_id)
 * - GET  /~/billing/reports/balances?subscription_id=|company_id= → array of balances
 * - GET  /~/billing/reports/balance_transactions?subscription_id=&take=&before_id= → ledger, newest first
 */
export function balanceOperations(
  deps: BalanceOperationDeps,
): Record<'createBalanceTransaction' | 'listBalances' | 'listBalanceTransactions', BalanceOperation> {
  const now = deps.now ?? (() => new Date());
  const ledger = deps.balances;

  return {
    async createBalanceTransaction(request, caller) {
      const ctx = contextOf(request, caller, now());
      const input = parseBody(BalanceTransactionCreate, readObjectBody(request));
      await ledger.recordTransaction(ctx, input);
      await deps.onGovernanceChange?.(ctx.orgId, ctx.appId);
      return { status: 204 };
    },

    async listBalances(request, caller) {
      const ctx = contextOf(request, caller, now());
      const subscriptionId = idParameter(request.query, 'subscription_id');
      const companyId = idParameter(request.query, 'company_id');
      if (subscriptionId === undefined && companyId === undefined) {
        throw new ValidationError('subscription_id or company_id is required', [
          { field: 'subscription_id', reason: 'is required unless company_id is given' },
        ]);
      }
      if (subscriptionId !== undefined) {
        const found = await ledger.balance(ctx, subscriptionId);
        const matches = found !== undefined && (companyId === undefined || found.companyId === companyId);
        return { status: 200, body: matches ? [subscriptionBalanceJson(found)] : [] };
      }
      const balances = await ledger.balancesOfCompany(ctx, companyId!);
      return { status: 200, body: balances.map(subscriptionBalanceJson) };
    },

    async listBalanceTransactions(request, caller) {
      const ctx = contextOf(request, caller, now());
      const subscriptionId = idParameter(request.query, 'subscription_id');
      if (subscriptionId === undefined) throw new ValidationError('subscription_id is required', [{ field: 'subscription_id', reason: 'is required' }]);
      const { take = 50, beforeId } = listOptions(request.query);
      const page = await ledger.entries(ctx, subscriptionId, beforeId === undefined ? { take } : { take, beforeId: sequenceParameter(beforeId) });
      const headers: Record<string, string> = page.nextBeforeId === undefined ? {} : { 'x-next-before-id': String(page.nextBeforeId) };
      return { status: 200, body: page.entries.map(balanceEntryJson), headers };
    },
  };
}

function idParameter(query: Readonly<Record<string, string>>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (value.length === 0 || value.length > MAX_BALANCE_ID_LENGTH) {
    throw new ValidationError(`Invalid query parameter ${name}`, [{ field: name, reason: `must be 1 to ${MAX_BALANCE_ID_LENGTH} characters` }]);
  }
  return value;
}

/** `before_id` of the ledger is a sequence_id. */
function sequenceParameter(text: string): number {
  const value = Number(text);
  if (!/^\d{1,12}$/.test(text) || value < 1)
    throw new ValidationError('Invalid query parameter before_id', [{ field: 'before_id', reason: 'must be a sequence_id (a positive integer)' }]);
  return value;
}
