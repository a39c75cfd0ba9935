import { closedWindows, reportingPeriodMs, windowContaining } from '../../../values/reporting-period';
import { signWebhook, verifyWebhook } from '../../../functions/billing/providers/webhook-signature';
import { idempotencyKey } from '../../../functions/billing/providers/idempotency-key';

describe('reporting periods', () => {
  it.each([
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1d', 86_400_000],
    ['2d', 172_800_000],
    ['15m', 900_000],
  ])('%s is %d ms', (text, ms) => {
    expect(reportingPeriodMs(text)).toBe(ms);
  });

  it.each(['1m', '7m', '5s', '1M', '40d', 'h', ''])('refuses %j', (text) => {
    expect(() => reportingPeriodMs(text)).toThrow(RangeError);
  });

  it('aligns windows to the UTC epoch', () => {
    const w = windowContaining(new Date('2026-11-22T10:17:42Z'), reportingPeriodMs('1h'));
    expect([w.start.toISOString(), w.end.toISOString()]).toEqual(['2026-11-22T10:00:00.000Z', '2026-11-22T11:00:00.000Z']);
  });

  it('lists closed windows from a cursor, leaving the settle time and honouring the limit', () => {
    const windows = closedWindows({ from: new Date('2026-11-22T08:00:00Z'), now: new Date('2026-11-22T11:01:00Z'), periodMs: 3_600_000, settleMs: 120_000 });
    expect(windows.map((w) => w.start.toISOString())).toEqual(['2026-11-22T08:00:00.000Z', '2026-11-22T09:00:00.000Z']);
    expect(closedWindows({ from: new Date('2026-11-22T08:00:00Z'), now: new Date('2026-11-22T11:05:00Z'), periodMs: 3_600_000, limit: 1 })).toHaveLength(1);
  });

  it('starts at the first boundary at or after the cursor', () => {
    const windows = closedWindows({ from: new Date('2026-11-22T08:30:00Z'), now: new Date('2026-11-22T10:00:00Z'), periodMs: 3_600_000 });
    expect(windows.map((w) => w.start.toISOString())).toEqual(['2026-11-22T09:00:00.000Z']);
  });
});

describe('webhook signatures', () => {
  const body = JSON.stringify({ usage: 12 });

  it('verifies what it signs, within the tolerance', () => {
    const header = signWebhook(body, 'secret', 1_000_000);
    expect(verifyWebhook(body, header, 'secret', 1_000_100)).toEqual({ valid: true, timestamp: 1_000_000 });
  });

  it('rejects a changed body, another secret, an old timestamp and a missing header', () => {
    const header = signWebhook(body, 'secret', 1_000_000);
    expect(verifyWebhook(`${body} `, header, 'secret', 1_000_000)).toMatchObject({ valid: false, reason: 'signature mismatch' });
    expect(verifyWebhook(body, header, 'other', 1_000_000)).toMatchObject({ valid: false });
    expect(verifyWebhook(body, header, 'secret', 1_000_301)).toMatchObject({ valid: false, reason: 'timestamp outside the tolerance' });
    expect(verifyWebhook(body, undefined, 'secret', 1_000_000)).toMatchObject({ valid: false });
  });

  it('accepts any of several v1 signatures (secret rotation)', () => {
    const header = `${signWebhook(body, 'old', 5)},v1=${signWebhook(body, 'new', 5).split('v1=')[1]}`;
    expect(verifyWebhook(body, header, 'new', 5).valid).toBe(true);
    expect(verifyWebhook(body, header, 'old', 5).valid).toBe(true);
  });
});

describe('idempotency keys', () => {
  const identity = {
    orgId: 'o',
    appId: 'a',
    meterId: 'm',
    subscriptionId: 's',
    windowStart: new Date('2026-11-22T08:00:00Z'),
    windowEnd: new Date('2026-11-22T09:00:00Z'),
    reportVersion: 1,
    destination: 'stripe',
  };

  it('is the same for a retry and different for a correction or another destination', () => {
    expect(idempotencyKey(identity)).toBe(idempotencyKey({ ...identity }));
    expect(idempotencyKey({ ...identity, reportVersion: 2 })).not.toBe(idempotencyKey(identity));
    expect(idempotencyKey({ ...identity, destination: 'webhook:c1' })).not.toBe(idempotencyKey(identity));
    expect(idempotencyKey(identity)).toHaveLength(48);
  });
});
