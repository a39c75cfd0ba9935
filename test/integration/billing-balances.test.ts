import { BalanceLedger } from '../../functions/billing/balances/balance-ledger';
import { BalanceStore } from '../../functions/billing/balances/balance-store';
import { Decimal } from '../../values/decimal';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/** Credits and balances over HTTP and through the ledger API, on DynamoDB Local. */
describe('billing balances', () => {
  let rt: TestRuntime;
  let otherToken: string;
  const path = '/~/billing/reports/balance_transactions';
  const post = (body: unknown, token?: string) => rt.management('POST', path, token ? { authorization: `Bearer ${token}` } : {}, body);
  const balances = (query: string, token?: string) =>
    rt.management('GET', `/~/billing/reports/balances?${query}`, token ? { authorization: `Bearer ${token}` } : {});
  const ledgerOf = (query: string) => rt.management('GET', `${path}?${query}`);
  const tenant = () => ({ orgId: rt.credentials.org_id, appId: rt.credentials.app_id });

  beforeAll(async () => {
    rt = await startTestRuntime('balances', { managementAuth: { rateLimitPerMinute: 100_000 } });
    await rt.apps.createOrgWithApp({ orgId: 'org_other', orgName: 'Other', appId: 'app_other', appName: 'Other' });
    otherToken = await rt.issueToken({ org_id: 'org_other', app_id: 'app_other' });
  });
  afterAll(() => rt?.dispose());

  it('records a transaction (204) and reads the balance and the ledger back, exactly', async () => {
    const created = await post({
      company_id: 'acme',
      subscription_id: 'sub-a',
      transaction_id: 'a-1',
      amount: '100.10',
      type: 'credit',
      description: 'top-up',
    });
    expect(created.status).toBe(204);
    expect((await post({ company_id: 'acme', subscription_id: 'sub-a', transaction_id: 'a-2', amount: 0.2, type: 'promotion' })).status).toBe(204);
    expect((await post({ company_id: 'acme', subscription_id: 'sub-a', transaction_id: 'a-3', amount: '0.3', type: 'debit' })).status).toBe(204);
    expect((await post({ company_id: 'acme', subscription_id: 'sub-a', transaction_id: 'a-4', amount: '-0.01', type: 'adjustment' })).status).toBe(204);

    const read = await balances('subscription_id=sub-a');
    expect(read.status).toBe(200);
    expect(read.body).toEqual([
      { company_id: 'acme', subscription_id: 'sub-a', sequence_id: 4, current_balance: 99.99, pending_activity: 0, available_balance: 99.99 },
    ]);
    expect((await balances('company_id=acme')).body).toEqual(read.body);
    expect((await balances('subscription_id=sub-a&company_id=globex')).body).toEqual([]);
    expect((await balances('subscription_id=nobody')).body).toEqual([]);

    const ledger = await ledgerOf('subscription_id=sub-a');
    expect(ledger.status).toBe(200);
    expect(ledger.body.map((e: any) => [e.sequence_id, e.entry_type, e.transaction_id, e.type, e.amount, e.current_balance])).toEqual([
      [4, 'transaction', 'a-4', 'adjustment', -0.01, 99.99],
      [3, 'transaction', 'a-3', 'debit', -0.3, 100],
      [2, 'transaction', 'a-2', 'promotion', 0.2, 100.3],
      [1, 'transaction', 'a-1', 'credit', 100.1, 100.1],
    ]);
    expect(ledger.body[3]).toMatchObject({ description: 'top-up', company_id: 'acme', subscription_id: 'sub-a' });

    // Paging: newest first, before_id is a sequence_id, the header points at the next page.
    const first = await ledgerOf('subscription_id=sub-a&take=3');
    expect(first.body.map((e: any) => e.sequence_id)).toEqual([4, 3, 2]);
    expect(first.headers.get('x-next-before-id')).toBe('2');
    const second = await ledgerOf('subscription_id=sub-a&take=3&before_id=2');
    expect(second.body.map((e: any) => e.sequence_id)).toEqual([1]);
    expect(second.headers.get('x-next-before-id')).toBeNull();
  });

  it('counts a repeated transaction_id once; a different body under the same id is a 400 naming it', async () => {
    const body = { company_id: 'acme', subscription_id: 'sub-dup', transaction_id: 'dup-1', amount: 10, type: 'credit', active_at: '2026-01-01T00:00:00Z' };
    expect((await post(body)).status).toBe(204);
    expect((await post(body)).status).toBe(204);
    expect((await post({ ...body, amount: '10.00', active_at: '2026-01-01T00:00:00.000Z' })).status).toBe(204);
    const changed = await post({ ...body, amount: 11 });
    expect(changed.status).toBe(400);
    expect(changed.body.error.details).toEqual([{ field: 'transaction_id', reason: expect.stringContaining('already used') }]);
    // Ids are unique per app: the same id on another subscription is refused too.
    expect((await post({ ...body, subscription_id: 'sub-other' })).status).toBe(400);
    expect((await balances('subscription_id=sub-dup')).body[0]).toMatchObject({ sequence_id: 1, current_balance: 10 });
    expect((await balances('subscription_id=sub-other')).body).toEqual([]);
  });

  it('answers 400 naming the field for bad input, and writes nothing', async () => {
    const base = { company_id: 'acme', subscription_id: 'sub-bad', transaction_id: 'bad-1', amount: 5, type: 'credit' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, amount: undefined }, 'amount'],
      [{ ...base, amount: 'five' }, 'amount'],
      [{ ...base, amount: -5 }, 'amount'],
      [{ ...base, type: 'gift' }, 'type'],
      [{ ...base, subscription_id: undefined }, 'subscription_id'],
      [{ ...base, active_at: 'soon' }, 'active_at'],
      [{ ...base, active_at: '2030-01-02T00:00:00Z', expire_at: '2030-01-01T00:00:00Z' }, 'expire_at'],
      [{ ...base, expire_at: '2020-01-01T00:00:00Z' }, 'expire_at'],
    ];
    for (const [body, field] of cases) {
      const answer = await post(body);
      expect([answer.status, answer.body.error.details.map((d: any) => d.field)]).toEqual([400, [field]]);
    }
    expect((await post([])).status).toBe(400);
    expect((await balances('subscription_id=sub-bad')).body).toEqual([]);

    // A subscription belongs to one company.
    expect((await post({ ...base, transaction_id: 'bad-2' })).status).toBe(204);
    const otherCompany = await post({ ...base, transaction_id: 'bad-3', company_id: 'globex' });
    expect([otherCompany.status, otherCompany.body.error.details[0].field]).toEqual([400, 'company_id']);

    const noFilter = await balances('');
    expect([noFilter.status, noFilter.body.error.details[0].field]).toEqual([400, 'subscription_id']);
    const noSubscription = await ledgerOf('take=5');
    expect([noSubscription.status, noSubscription.body.error.details[0].field]).toEqual([400, 'subscription_id']);
    const badBefore = await ledgerOf('subscription_id=sub-bad&before_id=abc');
    expect([badBefore.status, badBefore.body.error.details[0].field]).toEqual([400, 'before_id']);
  });

  it('keeps future credits pending until active_at and expires unused remainders at expire_at', async () => {
    let now = new Date('2026-03-01T00:00:00.000Z');
    const ledger = new BalanceLedger(new BalanceStore(rt.clients.documents, rt.names.tables.billing), { now: () => now });
    const day = (n: number) => new Date(Date.parse('2026-03-01T00:00:00.000Z') + n * 86_400_000).toISOString();
    const t = tenant();
    const tx = (id: string, type: 'credit' | 'promotion' | 'debit', amount: string, extra: { active_at?: string; expire_at?: string } = {}) =>
      ledger.recordTransaction(t, { company_id: 'acme', subscription_id: 'sub-time', transaction_id: id, type, amount: Decimal.from(amount), ...extra });

    await tx('t-1', 'credit', '100');
    await tx('t-2', 'promotion', '50', { active_at: day(1), expire_at: day(10) });
    await tx('t-3', 'debit', '20', { active_at: day(2) });
    expect(await ledger.balance(t, 'sub-time')).toMatchObject({ figures: { sequenceId: 3 } });
    const shown = async () => {
      const b = (await ledger.balance(t, 'sub-time'))!.figures;
      return [b.sequenceId, b.current.toString(), b.pending.toString(), b.available.toString()];
    };
    expect(await shown()).toEqual([3, '100', '30', '130']);

    now = new Date(day(3));
    // Read lazily: both activations are applied to what is shown and listed, before any write.
    expect(await shown()).toEqual([5, '130', '0', '130']);
    const listed = await ledger.entries(t, 'sub-time', { take: 10 });
    expect(listed.entries.map((e) => [e.sequenceId, e.entryType, e.transactionId])).toEqual([
      [5, 'activation', 't-3'],
      [4, 'activation', 't-2'],
      [3, 'transaction', 't-3'],
      [2, 'transaction', 't-2'],
      [1, 'transaction', 't-1'],
    ]);

    // The billing run draws usage; like the debit activated on day 2 (20), it spends the expiring promotion first.
    const draw = await ledger.drawUsage(t, {
      companyId: 'acme',
      subscriptionId: 'sub-time',
      reportKey: 'meter-1:sub-time:2026-03-03',
      reportVersion: 1,
      amount: Decimal.from('10.5'),
    });
    expect([draw.beginning.current.toString(), draw.ending.current.toString(), draw.balanceChanges.map((c) => c.amount.toString()), draw.duplicate]).toEqual([
      '130',
      '119.5',
      ['-10.5'],
      false,
    ]);
    expect(draw.ending.sequenceId).toBe(6);
    // The activations are now written, with the sequence ids that were shown.
    const persisted = await ledger.entries(t, 'sub-time', { take: 10 });
    expect(persisted.entries.map((e) => e.sequenceId)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(persisted.entries.slice(1)).toEqual(listed.entries);

    // A retry of the same report version returns the recorded result and changes nothing.
    now = new Date(day(4));
    const again = await ledger.drawUsage(t, {
      companyId: 'acme',
      subscriptionId: 'sub-time',
      reportKey: 'meter-1:sub-time:2026-03-03',
      reportVersion: 1,
      amount: Decimal.from('10.50'),
    });
    expect([again.duplicate, again.ending.current.toString(), again.ending.sequenceId]).toEqual([true, '119.5', 6]);
    await expect(
      ledger.drawUsage(t, {
        companyId: 'acme',
        subscriptionId: 'sub-time',
        reportKey: 'meter-1:sub-time:2026-03-03',
        reportVersion: 1,
        amount: Decimal.from('31'),
      }),
    ).rejects.toMatchObject({ details: [{ field: 'amount' }] });

    // Day 10: the promotion's unused 19.5 (50 − 20 − 10.5) expires.
    now = new Date(day(10));
    expect(await shown()).toEqual([7, '100', '0', '100']);
    const expiry = (await ledger.entries(t, 'sub-time', { take: 1 })).entries[0]!;
    expect([expiry.entryType, expiry.transactionId, expiry.amount.toString(), expiry.effectiveAt]).toEqual(['expiry', 't-2', '-19.5', day(10)]);
  });

  it('loses no update under 50 concurrent transactions plus concurrent usage draws and duplicates', async () => {
    const ledger = new BalanceLedger(new BalanceStore(rt.clients.documents, rt.names.tables.billing));
    const bodies = Array.from({ length: 50 }, (_, i) => {
      const type = (['credit', 'promotion', 'debit', 'adjustment'] as const)[i % 4]!;
      const amount = type === 'adjustment' ? `-0.0${(i % 9) + 1}` : `${i + 1}.${String((i * 7) % 100).padStart(2, '0')}`;
      return { company_id: 'acme', subscription_id: 'sub-hot', transaction_id: `hot-${i}`, amount, type };
    });
    const draws = Array.from({ length: 10 }, (_, i) => ({
      companyId: 'acme',
      subscriptionId: 'sub-hot',
      reportKey: `meter-1:sub-hot:w${i}`,
      reportVersion: 1,
      amount: Decimal.from(`0.${i + 1}5`),
    }));
    const answers = await Promise.all([
      ...bodies.map((b) => post(b)),
      // Each of the first five bodies sent twice concurrently: still counted once.
      ...bodies.slice(0, 5).map((b) => post(b)),
      ...draws.map((d) => ledger.drawUsage(tenant(), d)),
      ...draws.slice(0, 3).map((d) => ledger.drawUsage(tenant(), d)),
    ]);
    expect(answers.slice(0, 55).map((a: any) => a.status)).toEqual(Array(55).fill(204));

    let expected = Decimal.ZERO;
    for (const b of bodies) expected = b.type === 'debit' ? expected.minus(b.amount) : expected.plus(b.amount);
    for (const d of draws) expected = expected.minus(d.amount);

    const read = await balances('subscription_id=sub-hot');
    expect(read.body).toEqual([
      {
        company_id: 'acme',
        subscription_id: 'sub-hot',
        sequence_id: 60,
        current_balance: expected.toNumber(),
        pending_activity: 0,
        available_balance: expected.toNumber(),
      },
    ]);
    const exact = (await ledger.balance(tenant(), 'sub-hot'))!.figures;
    expect(exact.current.toString()).toBe(expected.toString());

    // The ledger holds one entry per change, sequence 1..60 without gaps, each balance the previous plus its amount.
    const all = (await ledger.entries(tenant(), 'sub-hot', { take: 100 })).entries.slice().reverse();
    expect(all.map((e) => e.sequenceId)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    let running = Decimal.ZERO;
    for (const e of all) {
      running = running.plus(e.amount);
      expect(e.after.current.toString()).toBe(running.toString());
    }
  });

  it('keeps tenants apart: another app sees none of these balances and its ids do not collide', async () => {
    expect((await balances('subscription_id=sub-a', otherToken)).body).toEqual([]);
    expect((await balances('company_id=acme', otherToken)).body).toEqual([]);
    expect((await rt.management('GET', `${path}?subscription_id=sub-a`, { authorization: `Bearer ${otherToken}` })).body).toEqual([]);
    // The same transaction_id in another app is another transaction.
    expect((await post({ company_id: 'acme', subscription_id: 'sub-a', transaction_id: 'a-1', amount: 7, type: 'credit' }, otherToken)).status).toBe(204);
    expect((await balances('subscription_id=sub-a', otherToken)).body).toEqual([
      { company_id: 'acme', subscription_id: 'sub-a', sequence_id: 1, current_balance: 7, pending_activity: 0, available_balance: 7 },
    ]);
    expect((await balances('subscription_id=sub-a')).body[0]).toMatchObject({ sequence_id: 4, current_balance: 99.99 });
  });

  it('requires the reports scopes', async () => {
    const readOnly = await rt.issueToken({ scopes: ['read:reports'] });
    const denied = await post({ company_id: 'acme', subscription_id: 'sub-a', transaction_id: 'scope-1', amount: 1, type: 'credit' }, readOnly);
    expect(denied.status).toBe(401);
    expect((await balances('subscription_id=sub-a', readOnly)).status).toBe(200);
    expect((await rt.management('POST', path, { authorization: 'Bearer nonsense' }, {})).status).toBe(401);
  });
});
