import * as z from 'zod';
import { Decimal } from '../../values/decimal';
import { DateTime } from '../collector';

/**
 * Credits and balances: the body of `POST /~/billing/reports/balance_transactions`, the CreditBalance
 * answer, and the ledger entries `GET /~/billing/reports/balance_transactions` lists.
 */

/** Longest company, subscription or transaction id: they become parts of DynamoDB keys. */
export const MAX_BALANCE_ID_LENGTH = 256;
export const MAX_DESCRIPTION_LENGTH = 1024;
/** Amounts are below this in magnitude, so their JSON numbers keep every integer digit. */
export const MAX_ABS_AMOUNT = '1000000000000000';
/** Finer than any currency's minor unit or any metered unit price anyone bills with. */
export const MAX_AMOUNT_DECIMALS = 12;

export const BalanceTransactionType = z.enum(['credit', 'debit', 'promotion', 'adjustment']);
export type BalanceTransactionType = z.infer<typeof BalanceTransactionType>;

const BalanceId = z.string().min(1, 'must not be empty').max(MAX_BALANCE_ID_LENGTH, `must be at most ${MAX_BALANCE_ID_LENGTH} characters`);

/** A number or decimal text, read exactly (through its decimal text, never float arithmetic). */
export const ExactAmount = z
  .union([z.number(), z.string()], { error: (issue) => (issue.input === undefined ? 'is required' : 'expected a number or a decimal string') })
  .transform((value, ctx) => {
    let amount: Decimal;
    try {
      amount = Decimal.from(String(value));
    } catch {
      ctx.issues.push({ code: 'custom', input: value, message: 'expected a decimal number such as 12.50' });
      return z.NEVER;
    }
    if (amount.scale > MAX_AMOUNT_DECIMALS) {
      ctx.issues.push({ code: 'custom', input: value, message: `must have at most ${MAX_AMOUNT_DECIMALS} decimal places` });
      return z.NEVER;
    }
    if (amount.compare(MAX_ABS_AMOUNT) >= 0 || amount.negated().compare(MAX_ABS_AMOUNT) >= 0) {
      ctx.issues.push({ code: 'custom', input: value, message: `must be smaller than ${MAX_ABS_AMOUNT} in magnitude` });
      return z.NEVER;
    }
    return amount;
  });

/**
 * Spec "Balance transaction create". `amount` is a magnitude for credit, promotion and debit (the type
 * gives the sign: debits subtract) and signed for adjustment. Unknown fields are refused: money input
 * is not guessed at.
 */
export const BalanceTransactionCreate = z
  .strictObject({
    company_id: BalanceId,
    subscription_id: BalanceId,
    transaction_id: BalanceId,
    amount: ExactAmount,
    type: BalanceTransactionType,
    description: z.string().max(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters`).nullish(),
    active_at: DateTime.nullish(),
    expire_at: DateTime.nullish(),
  })
  .superRefine((input, ctx) => {
    if (input.type === 'adjustment') {
      if (input.amount.isZero()) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'must not be zero' });
    } else if (input.amount.isZero() || input.amount.isNegative()) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: `must be greater than zero for a ${input.type} (the type gives the sign; use an adjustment for a signed amount)`,
      });
    }
    if (input.active_at && input.expire_at && Date.parse(input.expire_at) <= Date.parse(input.active_at)) {
      ctx.addIssue({ code: 'custom', path: ['expire_at'], message: 'must be after active_at' });
    }
  });
export type BalanceTransactionCreate = z.infer<typeof BalanceTransactionCreate>;

/** Spec CreditBalance: the three figures as JSON numbers, and the balance's change counter. */
export const CreditBalance = z.object({
  sequence_id: z.number().int(),
  current_balance: z.number(),
  pending_activity: z.number(),
  available_balance: z.number(),
});
export type CreditBalance = z.infer<typeof CreditBalance>;

/** One subscription's balance in `GET /~/billing/reports/balances`. */
export const SubscriptionBalance = CreditBalance.extend({
  company_id: z.string(),
  subscription_id: z.string(),
});
export type SubscriptionBalance = z.infer<typeof SubscriptionBalance>;

/**
 * What a ledger entry records: a transaction accepted (posted now, or pending until `active_at`), a
 * pending transaction becoming active, the unused remainder of a credit expiring, or usage drawn by a
 * billing report.
 */
export const BalanceEntryType = z.enum(['transaction', 'activation', 'expiry', 'usage']);
export type BalanceEntryType = z.infer<typeof BalanceEntryType>;

/** One ledger entry as listed: `amount` is its signed effect; the balances are those right after it. */
export const BalanceEntry = z.object({
  sequence_id: z.number().int(),
  entry_type: BalanceEntryType,
  company_id: z.string(),
  subscription_id: z.string(),
  transaction_id: z.string().optional(),
  type: BalanceTransactionType.optional(),
  report_key: z.string().optional(),
  report_version: z.number().int().optional(),
  amount: z.number(),
  effective_at: z.string(),
  description: z.string().optional(),
  active_at: z.string().optional(),
  expire_at: z.string().optional(),
  current_balance: z.number(),
  pending_activity: z.number(),
  available_balance: z.number(),
});
export type BalanceEntry = z.infer<typeof BalanceEntry>;
