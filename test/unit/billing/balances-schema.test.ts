import { transactionFingerprint } from '../../../functions/billing/balances/balance-ledger';
import { ValidationError } from '../../../functions/shared/errors';
import { BalanceTransactionCreate } from '../../../schemas/billing/balance';
import { parseBody } from '../../../functions/shared/invalid-input';

const valid = { company_id: 'acme', subscription_id: 'sub-1', transaction_id: 'tx-1', amount: 10, type: 'credit' };

function fieldsOf(body: unknown): string[] {
  try {
    parseBody(BalanceTransactionCreate, body);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).details.map((d) => d.field);
  }
  throw new Error('expected a ValidationError');
}

describe('balance transaction body', () => {
  it('reads amounts exactly from numbers and decimal strings', () => {
    expect(parseBody(BalanceTransactionCreate, { ...valid, amount: 0.1 }).amount.toString()).toBe('0.1');
    expect(parseBody(BalanceTransactionCreate, { ...valid, amount: '12345678901234.123456789012' }).amount.toString()).toBe('12345678901234.123456789012');
    expect(parseBody(BalanceTransactionCreate, { ...valid, type: 'adjustment', amount: '-2.50' }).amount.toString()).toBe('-2.5');
  });

  it('normalises date-times', () => {
    const parsed = parseBody(BalanceTransactionCreate, { ...valid, active_at: '2026-01-01T01:00:00+01:00', expire_at: '2026-02-01T00:00:00Z' });
    expect(parsed.active_at).toBe('2026-01-01T00:00:00.000Z');
    expect(parsed.expire_at).toBe('2026-02-01T00:00:00.000Z');
  });

  it.each([
    [{ ...valid, company_id: undefined }, ['company_id']],
    [{ ...valid, subscription_id: '' }, ['subscription_id']],
    [{ ...valid, transaction_id: 'x'.repeat(257) }, ['transaction_id']],
    [{ ...valid, amount: 'ten' }, ['amount']],
    [{ ...valid, amount: true }, ['amount']],
    [{ ...valid, amount: '0.0000000000001' }, ['amount']],
    [{ ...valid, amount: 1e15 }, ['amount']],
    [{ ...valid, amount: -5 }, ['amount']],
    [{ ...valid, type: 'debit', amount: 0 }, ['amount']],
    [{ ...valid, type: 'adjustment', amount: 0 }, ['amount']],
    [{ ...valid, type: 'refund' }, ['type']],
    [{ ...valid, active_at: 'yesterday' }, ['active_at']],
    [{ ...valid, active_at: '2026-02-01T00:00:00Z', expire_at: '2026-01-01T00:00:00Z' }, ['expire_at']],
    [{ ...valid, colour: 'red' }, ['colour']],
  ])('refuses %j naming %j', (body, fields) => {
    expect(fieldsOf(body)).toEqual(fields);
  });

  it('fingerprints bodies by value: 10 and "10.00" are the same transaction, another amount is not', () => {
    const a = transactionFingerprint(parseBody(BalanceTransactionCreate, valid));
    expect(transactionFingerprint(parseBody(BalanceTransactionCreate, { ...valid, amount: '10.00' }))).toBe(a);
    expect(transactionFingerprint(parseBody(BalanceTransactionCreate, { ...valid, amount: 11 }))).not.toBe(a);
  });
});
