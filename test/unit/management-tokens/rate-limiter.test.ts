import { RateLimiter } from '../../../functions/rate-limit/rate-limiter';
import { TooManyRequestsError } from '../../../functions/shared/errors';
import { fakeTable } from './fake-table';

async function takeMany(limiter: RateLimiter, org: string, n: number): Promise<{ ok: number; refused: TooManyRequestsError[] }> {
  let ok = 0;
  const refused: TooManyRequestsError[] = [];
  for (let i = 0; i < n; i++) {
    try {
      await limiter.take(org);
      ok++;
    } catch (error) {
      if (!(error instanceof TooManyRequestsError)) throw error;
      refused.push(error);
    }
  }
  return { ok, refused };
}

describe('RateLimiter', () => {
  let nowMs = Date.parse('2026-03-01T10:00:30Z');
  const now = () => nowMs;

  it('gives a quiet org limit + burst, then 429 with Retry-After and X-RateLimit-* headers', async () => {
    const { client } = fakeTable();
    const limiter = new RateLimiter(client, 'resources', { limitPerMinute: 20, now });
    const first = await limiter.take('org1');
    expect(first).toMatchObject({ limit: 30, remaining: 29, retryAfter: 30 });
    const { ok, refused } = await takeMany(limiter, 'org1', 40);
    expect(ok).toBe(29);
    expect(refused).toHaveLength(11);
    expect(refused[0]!.headers).toEqual({
      'retry-after': '30',
      'x-ratelimit-limit': '30',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Date.parse('2026-03-01T10:01:00Z') / 1000),
    });
    // Another org has its own counter.
    await expect(limiter.take('org2')).resolves.toMatchObject({ remaining: 29 });
  });

  it('carries only the unused part of the previous minute into the next', async () => {
    const { client, items } = fakeTable();
    nowMs = Date.parse('2026-03-01T11:00:10Z');
    const limiter = new RateLimiter(client, 'resources', { limitPerMinute: 20, now });
    expect((await takeMany(limiter, 'org', 14)).ok).toBe(14); // 11:00 used 14 of 30
    nowMs = Date.parse('2026-03-01T11:01:05Z');
    expect((await takeMany(limiter, 'org', 40)).ok).toBe(26); // 20 + min(10, 20 − 14)
    nowMs = Date.parse('2026-03-01T11:02:00Z');
    expect((await takeMany(limiter, 'org', 40)).ok).toBe(20); // previous minute used more than the limit: no credit
    expect(items.get('RATE#org|MINUTE#2026-03-01T11:01')).toMatchObject({ used: 26, expires_at: Date.parse('2026-03-01T11:02:00Z') / 1000 + 300 });
  });

  it('keeps separate buckets apart', async () => {
    const { client, items } = fakeTable();
    const limiter = new RateLimiter(client, 'resources', { limitPerMinute: 2, bucket: 'CUSTOMER_PAGES_MINUTE', now });
    await limiter.take('org');
    expect([...items.keys()][0]).toMatch(/^RATE#org\|CUSTOMER_PAGES_MINUTE#/);
  });
});
