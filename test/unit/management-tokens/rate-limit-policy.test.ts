import { allowance, minuteLabel, minuteStart, rateLimitHeaders, rateLimitPolicy, rateLimitStatus } from '../../../functions/rate-limit/rate-limit-policy';

describe('rate-limit arithmetic', () => {
  const policy = rateLimitPolicy(500);

  it('caps the burst at half the limit', () => {
    expect(policy).toEqual({ limit: 500, burstCap: 250 });
    expect(rateLimitPolicy(1)).toEqual({ limit: 1, burstCap: 0 });
    expect(() => rateLimitPolicy(0)).toThrow();
    expect(() => rateLimitPolicy(2.5)).toThrow();
  });

  it('carries the unused part of the previous minute, bounded by the burst cap', () => {
    expect(allowance(policy, 0)).toBe(750); // quiet minute: full burst
    expect(allowance(policy, 300)).toBe(700); // 200 unused
    expect(allowance(policy, 499)).toBe(501);
    expect(allowance(policy, 500)).toBe(500); // no credit
    expect(allowance(policy, 750)).toBe(500); // a burst minute never makes the next one smaller than the limit
  });

  it('bounds two consecutive minutes at 2.5 × limit', () => {
    let worst = 0;
    for (let before = 0; before <= 750; before += 10) {
      const first = allowance(policy, before);
      worst = Math.max(worst, first + allowance(policy, first));
    }
    expect(worst).toBeLessThanOrEqual(1250);
  });

  it('works on UTC calendar minutes', () => {
    const at = Date.parse('2026-03-01T10:15:42.123Z');
    expect(minuteStart(at)).toBe(Date.parse('2026-03-01T10:15:00Z'));
    expect(minuteLabel(minuteStart(at))).toBe('2026-03-01T10:15');
  });

  it('reports remaining, reset and Retry-After from an injected clock', () => {
    const at = Date.parse('2026-03-01T10:15:42.123Z');
    const status = rateLimitStatus(750, 749, at);
    expect(status).toEqual({ limit: 750, remaining: 1, reset: Date.parse('2026-03-01T10:16:00Z') / 1000, retryAfter: 18 });
    expect(rateLimitStatus(750, 800, Date.parse('2026-03-01T10:15:59.999Z'))).toMatchObject({ remaining: 0, retryAfter: 1 });
    expect(rateLimitStatus(10, 0, Date.parse('2026-03-01T10:15:00Z')).retryAfter).toBe(60);
    expect(rateLimitHeaders(status)).toEqual({ 'x-ratelimit-limit': '750', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': String(status.reset) });
  });
});
