import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CustomerStatement, StatementVerification } from '../../schemas/billing/customer-statement';
import type { FakeWebhookReceiver } from '../support/fake-providers';
import { HOUR } from './support/billing-scenario';
import { closedPeriodOnGraduatedPrice, subscriptionInPeriod } from './support/simulation-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

const run = promisify(execFile);
const STATEMENT_CHECKS = 8;

/**
 * Signed statements on the real emulators: a closed period's statement says what the billing run
 * billed, its event list adds up to the usage and hashes to the signed digest, the documented
 * script and the verification endpoint accept it and refuse it once one line is altered, and a void
 * after it issues a new version while the old one stays on record, marked superseded.
 */
describe('customer statements', () => {
  let rt: TestRuntime;
  let fake: FakeWebhookReceiver;
  let meterId: string;
  let token: string;
  let closed: { current_period_start: string; current_period_end: string };
  let dir: string;
  const base = Math.floor(Date.now() / HOUR) * HOUR;
  const open = (path: string) => rt.management('GET', `/public/customers/${encodeURIComponent(token)}${path}`, { authorization: '' });
  const statementPath = (extra = '') => `/statement?subscription_id=sub-co-large&period_start=${encodeURIComponent(closed.current_period_start)}${extra}`;
  const eventList = async (): Promise<string> => {
    let lines = '';
    let after: string | undefined;
    do {
      const page = await open(
        `/statement/events?subscription_id=sub-co-large&period_start=${encodeURIComponent(closed.current_period_start)}&billing_meter_id=${meterId}${after ? `&after=${after}` : ''}`,
      );
      expect(page.status).toBe(200);
      lines += page.body.lines;
      after = page.body.next;
    } while (after);
    return lines;
  };
  const verifyWith = (statement: unknown, eventDigests?: Record<string, string>) =>
    rt.management('POST', '/public/statement-verifications', { authorization: '' }, { statement, ...(eventDigests ? { event_digests: eventDigests } : {}) });
  const script = (...args: string[]) =>
    run(process.execPath, ['examples/verify-statement.mjs', rt.credentials.management_url, ...args]).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );

  beforeAll(async () => {
    // A low allowance of statement checks, so its last test reaches the end of it.
    rt = await startTestRuntime('customer-statements', { managementAuth: { statementChecksPerMinute: STATEMENT_CHECKS } });
    dir = await mkdtemp(join(tmpdir(), 'statements-'));
    let planId: string;
    ({ receiver: fake, planId, meterId, period: closed } = await closedPeriodOnGraduatedPrice(rt));
    await subscriptionInPeriod(rt, planId);
    token = (await rt.management('POST', '/~/customer_tokens', {}, { company_id: 'co-large' })).body.token;
  }, 60_000);

  afterAll(async () => {
    await fake?.stop();
    await rt?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('states what the run billed, and lists the events behind it, adding up and hashing to what it signed', async () => {
    const answer = await open(statementPath());
    expect(answer.status).toBe(200);
    const statement = answer.body as CustomerStatement;
    expect(statement).toMatchObject({
      company_id: 'co-large',
      subscription_id: 'sub-co-large',
      version: 1,
      changes: [],
      period: { start: closed.current_period_start, end: closed.current_period_end },
      totals: [{ currency: 'usd', amount: '2.1' }],
      signature: { algorithm: 'Ed25519' },
    });
    expect(statement.meters).toEqual([
      expect.objectContaining({ billing_meter_id: meterId, usage: 12, reported_usage: 12, amount: '2.1', event_count: 12, currency: 'usd' }),
    ]);
    const list = await eventList();
    const [header, ...rows] = list.trimEnd().split('\n');
    expect(header).toBe('transaction_id,time,window_start,name,quantity');
    expect(rows).toHaveLength(12);
    // Added up as the statement's rule says: per window, the sum of the quantities, multiplied and rounded.
    const perWindow = new Map<string, number>();
    for (const row of rows) {
      const [id, time, window, name, quantity] = row.split(',');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(window!)).toBeLessThanOrEqual(Date.parse(time!));
      expect(name).toMatch(/^GET /);
      perWindow.set(window!, (perWindow.get(window!) ?? 0) + Number(quantity));
    }
    const rule = statement.meters[0]!.rule;
    expect(rule).toEqual({ metric: 'sum', field: 'weight', multiplier: 1, rounding: expect.any(String), window_minutes: 60 });
    expect([...perWindow.values()].reduce((sum, raw) => sum + Math.round(raw * rule.multiplier), 0)).toBe(statement.meters[0]!.usage);
    expect(createHash('sha256').update(list).digest('hex')).toBe(statement.meters[0]!.events_digest);
    // Asked again with nothing changed: the same version, as issued.
    expect((await open(statementPath())).body).toEqual(statement);
  });

  it('is verified by the documented script and the endpoint, and refused once one line is altered', async () => {
    const statement = (await open(statementPath())).body as CustomerStatement;
    const list = await eventList();
    await writeFile(join(dir, 'statement.json'), JSON.stringify(statement, null, 2));
    await writeFile(join(dir, 'events.csv'), list);
    const good = await script(join(dir, 'statement.json'), `${meterId}=${join(dir, 'events.csv')}`);
    expect(good).toEqual({ code: 0, stdout: expect.stringContaining('signature (key') });
    const digest = createHash('sha256').update(list).digest('hex');
    expect((await verifyWith(statement, { [meterId]: digest })).body).toMatchObject({
      valid: true,
      signature: 'valid',
      superseded: false,
      version: 1,
      latest_version: 1,
    });

    // One event's quantity changed in the download: the list no longer matches.
    const altered = list.replace(/,1\n$/, ',2\n');
    expect(altered).not.toBe(list);
    await writeFile(join(dir, 'events-altered.csv'), altered);
    const badList = await script(join(dir, 'statement.json'), `${meterId}=${join(dir, 'events-altered.csv')}`);
    expect(badList.code).toBe(1);
    expect(badList.stdout).toContain('DO NOT MATCH');
    const refused = (await verifyWith(statement, { [meterId]: createHash('sha256').update(altered).digest('hex') })).body as StatementVerification;
    expect(refused).toMatchObject({ valid: false, signature: 'valid', events: [{ billing_meter_id: meterId, matches: false }] });

    // The statement's amount changed: the signature no longer holds.
    const forged = { ...statement, totals: [{ currency: 'usd', amount: '1.1' }] };
    await writeFile(join(dir, 'forged.json'), JSON.stringify(forged));
    const badStatement = await script(join(dir, 'forged.json'));
    expect(badStatement.code).toBe(1);
    expect(badStatement.stdout).toContain('INVALID');
    expect((await verifyWith(forged)).body).toMatchObject({ valid: false, signature: 'invalid' });
  });

  it('publishes each app its key and refuses what is not a statement of an app', async () => {
    const { org_id, app_id } = rt.credentials;
    const key = await rt.management('GET', `/public/statement-keys/${org_id}/${app_id}`, { authorization: '' });
    expect(key.status).toBe(200);
    expect(key.body).toMatchObject({
      algorithm: 'Ed25519',
      public_key: expect.stringMatching(/^[\w-]{43}$/),
      public_key_pem: expect.stringContaining('PUBLIC KEY'),
    });
    const statement = (await open(statementPath())).body as CustomerStatement;
    expect(statement.signature.key_id).toBe(key.body.key_id);
    expect((await rt.management('GET', `/public/statement-keys/${org_id}/nope`, { authorization: '' })).status).toBe(404);
    // The same statement claimed for another app: that app's key did not sign it.
    expect((await verifyWith({ ...statement, app_id: 'other' })).body).toMatchObject({ valid: false, signature: 'invalid' });
    const malformed = await verifyWith({ org_id, app_id, version: 'one' });
    expect(malformed.body).toMatchObject({ valid: false, problems: expect.arrayContaining([expect.stringContaining('version')]) });
    expect((await rt.management('POST', '/public/statement-verifications', { authorization: '' }, { statement: {} })).status).toBe(400);
  });

  it('refuses a period still open, another subscription, a meter not on it and a cursor it did not give, naming the field', async () => {
    const openPeriod = new Date(base - 2 * HOUR).toISOString();
    const sub = await rt.management('POST', '/~/customer_tokens', {}, { company_id: 'co-open' });
    const early = await rt.management(
      'GET',
      `/public/customers/${encodeURIComponent(sub.body.token)}/statement?subscription_id=sub-open&period_start=${encodeURIComponent(openPeriod)}`,
      { authorization: '' },
    );
    expect(early.status).toBe(400);
    expect(early.body.error.details).toEqual([expect.objectContaining({ field: 'period_start' })]);
    expect((await open(`/statement?subscription_id=sub-co-small&period_start=${encodeURIComponent(closed.current_period_start)}`)).status).toBe(404);
    const events = `/statement/events?subscription_id=sub-co-large&period_start=${encodeURIComponent(closed.current_period_start)}`;
    expect((await open(`${events}&billing_meter_id=nope`)).body.error.details).toEqual([expect.objectContaining({ field: 'billing_meter_id' })]);
    expect((await open(`${events}&billing_meter_id=${meterId}&after=bm90IGpzb24`)).body.error.details).toEqual([expect.objectContaining({ field: 'after' })]);
    // Cursors of another shape than the list's sort (time, then id): refused as cursors, not run.
    for (const forged of [['x', 'y'], [1], [{ at: 1 }, 'e1'], 'not a list'])
      expect(
        (await open(`${events}&billing_meter_id=${meterId}&after=${Buffer.from(JSON.stringify(forged)).toString('base64url')}`)).body.error.details,
      ).toEqual([expect.objectContaining({ field: 'after' })]);
    expect((await open(`${statementPath()}&extra=1`)).status).toBe(400);
    expect((await open(statementPath('&version=9'))).status).toBe(404);
  });

  it('issues a new version after a void, saying what changed, and checks the old one as superseded even before anyone asks again', async () => {
    const first = (await open(statementPath())).body as CustomerStatement;
    const ids = (await eventList())
      .trimEnd()
      .split('\n')
      .slice(1, 3)
      .map((row) => row.split(',')[0]!);
    const voided = await rt.management(
      'POST',
      '/~/events/voids',
      {},
      { reason: 'sent twice', query: { terms: { transaction_id: ids } }, from: closed.current_period_start, to: closed.current_period_end },
    );
    expect(voided.status).toBe(201);
    // Checked before anyone asks for the statement again: the check compares with the period as it stands now.
    expect((await verifyWith(first)).body).toMatchObject({ valid: true, superseded: true, version: 1, latest_version: 2 });
    const second = (await open(statementPath())).body as CustomerStatement;
    expect(second.version).toBe(2);
    expect(second.meters[0]).toMatchObject({ usage: 10, event_count: 10, reported_usage: 12 });
    expect(second.changes).toEqual(expect.arrayContaining(['calls: usage 12 → 10', 'calls: events 12 → 10']));
    expect(second.meters[0]!.events_digest).not.toBe(first.meters[0]!.events_digest);
    expect((await open(statementPath('&version=1'))).body).toEqual(first);
    expect((await verifyWith(second)).body).toMatchObject({ valid: true, superseded: false, latest_version: 2 });
  });

  it('counts checks of signed statements per org: past the minute’s allowance a 429 naming rate_limit, while forged ones cost nothing', async () => {
    const statement = (await open(statementPath())).body as CustomerStatement;
    // The tests above spent some of the allowance, perhaps across a minute's end (which carries credit): check until refused.
    const answers: number[] = [];
    let refused: Awaited<ReturnType<typeof verifyWith>> | undefined;
    for (let check = 0; check < 3 * STATEMENT_CHECKS && !refused; check++) {
      const answer = await verifyWith(statement);
      if (answer.status === 429) refused = answer;
      else answers.push(answer.status);
    }
    expect(answers.every((status) => status === 200)).toBe(true);
    expect(refused?.body.error).toMatchObject({ status: 429, details: [{ field: 'rate_limit' }] });
    expect(refused?.body.error.message).toMatch(/statement checks of this minute/);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // A statement whose signature does not hold is never compared with its period: answered, not counted.
    const forged = (await verifyWith({ ...statement, totals: [{ currency: 'usd', amount: '0' }] })).body as StatementVerification;
    expect(forged).toMatchObject({ valid: false, signature: 'invalid' });
  });
});
