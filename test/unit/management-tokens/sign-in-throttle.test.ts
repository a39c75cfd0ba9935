import { DEFAULT_SIGN_IN_POLICY, SignInThrottle, type FailureCount, type FailureCounters } from '../../../functions/rate-limit/sign-in-throttle';

/** Counters in memory, keyed as the table keys them (counter and window). */
function memoryCounters(): FailureCounters {
  const items = new Map<string, FailureCount>();
  return {
    async read(keys, window) {
      return new Map(keys.flatMap((key) => (items.has(`${key}|${window}`) ? [[key, items.get(`${key}|${window}`)!] as const] : [])));
    },
    async add(keys, window, atMs) {
      for (const key of keys) items.set(`${key}|${window}`, { failures: (items.get(`${key}|${window}`)?.failures ?? 0) + 1, lastFailureMs: atMs });
    },
    async clear(key, window) {
      items.delete(`${key}|${window}`);
    },
  };
}

describe('sign-in throttle', () => {
  let clock = Date.parse('2026-03-01T10:00:00Z');
  const throttle = () => new SignInThrottle(memoryCounters(), DEFAULT_SIGN_IN_POLICY, () => clock);
  const attempt = (source: string, username = 'admin') => ({ orgId: 'org', username, source });

  beforeEach(() => {
    clock = Date.parse('2026-03-01T10:00:00Z');
  });

  it('gives an account and source five free failures, then delays that double with each failure, up to 15 minutes', async () => {
    const t = throttle();
    const waits: number[] = [];
    for (let i = 0; i < 16; i++) {
      await t.failed(attempt('198.51.100.1'));
      waits.push(await t.waitMs(attempt('198.51.100.1')));
    }
    expect(waits.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(waits.slice(4, 9)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
    expect(waits.at(-1)).toBe(15 * 60_000);
    // The wait runs from the last failure.
    clock += 10 * 60_000;
    expect(await t.waitMs(attempt('198.51.100.1'))).toBe(5 * 60_000);
  });

  it('never slows a source that has not failed on an account, however many other sources failed on it', async () => {
    const t = throttle();
    for (let host = 1; host <= 12; host++) for (let i = 0; i < 5; i++) await t.failed(attempt(`203.0.113.${host}`));
    expect(await t.waitMs(attempt('192.0.2.7'))).toBe(0);
    // A source that failed once on the attacked account waits: the account has 60 failures.
    await t.failed(attempt('192.0.2.8'));
    expect(await t.waitMs(attempt('192.0.2.8'))).toBeGreaterThan(0);
    // Its failures on another account do not count against this one's owner.
    expect(await t.waitMs(attempt('192.0.2.8', 'someone-else'))).toBe(0);
  });

  it('slows a source that fails on many accounts, and forgives an account and source on a right password', async () => {
    const t = throttle();
    for (let i = 0; i < 20; i++) await t.failed(attempt('198.51.100.9', `user-${i}`));
    expect(await t.waitMs(attempt('198.51.100.9', 'fresh'))).toBe(1_000);
    await t.failed(attempt('198.51.100.10'));
    await t.failed(attempt('198.51.100.10'));
    await t.succeeded(attempt('198.51.100.10'));
    for (let i = 0; i < 4; i++) await t.failed(attempt('198.51.100.10'));
    expect(await t.waitMs(attempt('198.51.100.10'))).toBe(0);
  });

  it('counts the window before too, so a window boundary gives no fresh allowance, and forgets after two windows', async () => {
    const t = throttle();
    clock = Date.parse('2026-03-01T10:14:59Z');
    for (let i = 0; i < 5; i++) await t.failed(attempt('198.51.100.1'));
    clock = Date.parse('2026-03-01T10:15:00Z');
    expect(await t.waitMs(attempt('198.51.100.1'))).toBe(0);
    await t.failed(attempt('198.51.100.1'));
    expect(await t.waitMs(attempt('198.51.100.1'))).toBe(2_000);
    clock = Date.parse('2026-03-01T10:45:00Z');
    expect(await t.waitMs(attempt('198.51.100.1'))).toBe(0);
  });
});
