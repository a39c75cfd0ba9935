import { Decimal } from '../../../values/decimal';
import {
  acceptTransaction,
  advance,
  drawUsage,
  EMPTY_BALANCE,
  figuresOf,
  signedAmount,
  type BalanceState,
  type SignedTransaction,
} from '../../../functions/billing/balances/balance-state';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const at = (hours: number) => new Date(T0.getTime() + hours * 3_600_000);
const iso = (hours: number) => at(hours).toISOString();

function tx(id: string, type: SignedTransaction['type'], amount: string, fields: Partial<SignedTransaction> = {}): SignedTransaction {
  return { transactionId: id, type, amount: signedAmount(type, Decimal.from(amount)), activeAt: T0.toISOString(), ...fields };
}

/** Figures as text, for exact comparisons. */
function shown(state: BalanceState) {
  const f = figuresOf(state);
  return { seq: f.sequenceId, current: f.current.toString(), pending: f.pending.toString(), available: f.available.toString() };
}

function lotsTotal(state: BalanceState): Decimal {
  return Decimal.sum(state.lots.map((l) => l.remaining));
}

describe('balance arithmetic', () => {
  it('credits and promotions add, debits subtract, adjustments carry their sign, exactly', () => {
    let s = EMPTY_BALANCE;
    s = acceptTransaction(s, tx('c1', 'credit', '0.1'), T0).state;
    s = acceptTransaction(s, tx('p1', 'promotion', '0.2'), T0).state;
    expect(shown(s)).toEqual({ seq: 2, current: '0.3', pending: '0', available: '0.3' });
    s = acceptTransaction(s, tx('d1', 'debit', '0.05'), T0).state;
    s = acceptTransaction(s, tx('a1', 'adjustment', '-0.25'), T0).state;
    expect(shown(s)).toEqual({ seq: 4, current: '0', pending: '0', available: '0' });
    s = acceptTransaction(s, tx('a2', 'adjustment', '-1.5'), T0).state;
    expect(shown(s).current).toBe('-1.5');
  });

  it('a future active_at counts in pending (signed) until it comes, then moves to current with an activation entry', () => {
    let s = acceptTransaction(EMPTY_BALANCE, tx('c1', 'credit', '100'), T0).state;
    const accepted = acceptTransaction(s, tx('c2', 'credit', '50', { activeAt: iso(24) }), T0);
    s = accepted.state;
    expect(accepted.entries.map((e) => e.entryType)).toEqual(['transaction']);
    s = acceptTransaction(s, tx('d1', 'debit', '30', { activeAt: iso(48) }), T0).state;
    expect(shown(s)).toEqual({ seq: 3, current: '100', pending: '20', available: '120' });

    // Nothing due yet: advancing changes nothing.
    expect(advance(s, at(23)).entries).toEqual([]);

    const day1 = advance(s, at(24));
    expect(day1.entries).toMatchObject([{ entryType: 'activation', transactionId: 'c2', sequenceId: 4, effectiveAt: iso(24) }]);
    expect(shown(day1.state)).toEqual({ seq: 4, current: '150', pending: '-30', available: '120' });

    const day3 = advance(s, at(72));
    expect(day3.entries.map((e) => [e.entryType, e.transactionId, e.sequenceId])).toEqual([
      ['activation', 'c2', 4],
      ['activation', 'd1', 5],
    ]);
    expect(shown(day3.state)).toEqual({ seq: 5, current: '120', pending: '0', available: '120' });
  });

  it('advancing is deterministic and can stop after a number of entries and resume', () => {
    let s = EMPTY_BALANCE;
    for (let i = 1; i <= 5; i += 1) s = acceptTransaction(s, tx(`c${i}`, 'credit', '1', { activeAt: iso(i) }), T0).state;
    const all = advance(s, at(10));
    const first = advance(s, at(10), 2);
    expect(first.done).toBe(false);
    expect(first.entries).toHaveLength(2);
    const rest = advance(first.state, at(10));
    expect(rest.done).toBe(true);
    expect([...first.entries, ...rest.entries]).toEqual(all.entries);
    expect(shown(rest.state)).toEqual(shown(all.state));
  });

  it('an expired credit stops counting at expire_at: only its unused remainder leaves the balance', () => {
    let s = acceptTransaction(EMPTY_BALANCE, tx('c1', 'credit', '100'), T0).state;
    s = acceptTransaction(s, tx('p1', 'promotion', '50', { expireAt: iso(24) }), T0).state;
    // Spending takes from the expiring promotion first.
    s = drawUsage(s, { reportKey: 'r1', reportVersion: 1, amount: Decimal.from('30') }, at(1)).state;
    expect(shown(s)).toEqual({ seq: 3, current: '120', pending: '0', available: '120' });
    expect(lotsTotal(s).toString()).toBe('20');

    const expired = advance(s, at(24));
    expect(expired.entries).toMatchObject([{ entryType: 'expiry', transactionId: 'p1', effectiveAt: iso(24) }]);
    expect(expired.entries[0]!.amount.toString()).toBe('-20');
    expect(shown(expired.state)).toEqual({ seq: 4, current: '100', pending: '0', available: '100' });
    expect(expired.state.lots).toEqual([]);
  });

  it('a fully used expiring credit expires with nothing left to remove', () => {
    let s = acceptTransaction(EMPTY_BALANCE, tx('p1', 'promotion', '10', { expireAt: iso(5) }), T0).state;
    s = acceptTransaction(s, tx('d1', 'debit', '10'), at(1)).state;
    expect(s.lots).toEqual([]);
    expect(advance(s, at(6)).entries).toEqual([]);
    expect(shown(s).current).toBe('0');
  });

  it('the lot expiring first is spent first', () => {
    let s = acceptTransaction(EMPTY_BALANCE, tx('late', 'credit', '10', { expireAt: iso(48) }), T0).state;
    s = acceptTransaction(s, tx('soon', 'credit', '10', { expireAt: iso(24) }), T0).state;
    s = acceptTransaction(s, tx('d1', 'debit', '15'), T0).state;
    expect(s.lots.map((l) => [l.transactionId, l.remaining.toString()])).toEqual([['late', '5']]);
    const end = advance(s, at(100));
    expect(end.entries.map((e) => [e.transactionId, e.amount.toString()])).toEqual([['late', '-5']]);
    expect(shown(end.state).current).toBe('0');
  });

  it('a credit posted while the balance is negative covers the deficit first; only the rest can expire', () => {
    let s = drawUsage(EMPTY_BALANCE, { reportKey: 'r1', reportVersion: 1, amount: Decimal.from('30') }, T0).state;
    expect(shown(s).current).toBe('-30');
    s = acceptTransaction(s, tx('p1', 'promotion', '50', { expireAt: iso(24) }), T0).state;
    expect(lotsTotal(s).toString()).toBe('20');
    const end = advance(s, at(24));
    expect(shown(end.state).current).toBe('0');
    // A smaller credit is used up by the deficit entirely: nothing to expire.
    const small = acceptTransaction(
      drawUsage(EMPTY_BALANCE, { reportKey: 'r', reportVersion: 1, amount: Decimal.from('30') }, T0).state,
      tx('p2', 'promotion', '10', { expireAt: iso(24) }),
      T0,
    ).state;
    expect(small.lots).toEqual([]);
  });

  it('expiry comes before an activation at the same instant, and activation of a future expiring credit opens a lot', () => {
    let s = acceptTransaction(EMPTY_BALANCE, tx('old', 'promotion', '10', { expireAt: iso(24) }), T0).state;
    s = acceptTransaction(s, tx('new', 'promotion', '7', { activeAt: iso(24), expireAt: iso(48) }), T0).state;
    const day1 = advance(s, at(24));
    expect(day1.entries.map((e) => [e.entryType, e.transactionId])).toEqual([
      ['expiry', 'old'],
      ['activation', 'new'],
    ]);
    expect(shown(day1.state)).toEqual({ seq: 4, current: '7', pending: '0', available: '7' });
    const day2 = advance(day1.state, at(48));
    expect(shown(day2.state).current).toBe('0');
  });

  it('a back-dated credit already past its expire_at is recorded and expires in the same step', () => {
    const t = acceptTransaction(EMPTY_BALANCE, tx('gone', 'credit', '5', { activeAt: iso(-48), expireAt: iso(-24) }), T0);
    expect(t.entries.map((e) => e.entryType)).toEqual(['transaction', 'expiry']);
    expect(shown(t.state)).toEqual({ seq: 2, current: '0', pending: '0', available: '0' });
  });

  it('usage draws down the balance, may overdraw it, and a negative draw (a correction) gives back', () => {
    let s = acceptTransaction(EMPTY_BALANCE, tx('c1', 'credit', '10.00'), T0).state;
    const first = drawUsage(s, { reportKey: 'm:s:w', reportVersion: 1, amount: Decimal.from('12.345') }, at(1));
    expect(first.entries).toMatchObject([{ entryType: 'usage', reportKey: 'm:s:w', reportVersion: 1 }]);
    expect(first.entries[0]!.amount.toString()).toBe('-12.345');
    s = first.state;
    expect(shown(s)).toEqual({ seq: 2, current: '-2.345', pending: '0', available: '-2.345' });
    s = drawUsage(s, { reportKey: 'm:s:w', reportVersion: 2, amount: Decimal.from('-0.345') }, at(2)).state;
    expect(shown(s).current).toBe('-2');
  });

  it('keeps the lots within the positive balance through any mix of changes', () => {
    // A deterministic pseudo-random walk over every kind of change.
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let s = EMPTY_BALANCE;
    for (let step = 0; step < 400; step += 1) {
      const now = at(step);
      s = advance(s, now).state;
      const amount = Decimal.from((Math.floor(rand() * 10_000) / 100).toFixed(2));
      const choice = Math.floor(rand() * 5);
      if (choice === 4) {
        s = drawUsage(s, { reportKey: `r${step}`, reportVersion: 1, amount }, now).state;
      } else {
        const type = (['credit', 'promotion', 'debit', 'adjustment'] as const)[choice]!;
        const fields = rand() < 0.5 ? { expireAt: iso(step + 1 + Math.floor(rand() * 30)) } : {};
        s = acceptTransaction(s, tx(`t${step}`, type, amount.toString(), { activeAt: now.toISOString(), ...fields }), now).state;
      }
      const positive = s.current.isNegative() ? Decimal.ZERO : s.current;
      expect(lotsTotal(s).compare(positive)).toBeLessThanOrEqual(0);
      expect(s.lots.every((l) => l.remaining.compare(Decimal.ZERO) > 0)).toBe(true);
    }
    expect(s.sequenceId).toBeGreaterThanOrEqual(400);
  });
});
