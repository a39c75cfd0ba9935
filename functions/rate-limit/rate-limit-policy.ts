/**
 * The Management API rate limit, as arithmetic (no I/O, so it can be tested with any clock).
 *
 * Each org has `limit` queries per calendar minute (UTC). Quiet minutes carry credit forward,
 * bounded: the allowance of minute m is
 *
 *     allowance(m) = limit + min(burstCap, max(0, limit − used(m − 1))),   burstCap = ⌊limit / 2⌋
 *
 * where used(m − 1) counts the queries the previous minute accepted. So an org never gets more than
 * 1.5 × limit in one minute, and never more than 2.5 × limit in two consecutive minutes.
 */
export interface RateLimitPolicy {
  readonly limit: number;
  readonly burstCap: number;
}

export const DEFAULT_MANAGEMENT_RATE_LIMIT = 500;

/**
 * Checks of validly signed statements per org and minute (the open verification route): each one
 * re-reads the period's events, up to 100,000 a meter, so the bound is that of a person checking
 * statements, not of a script.
 */
export const STATEMENT_CHECKS_PER_MINUTE = 60;

export function rateLimitPolicy(limit: number): RateLimitPolicy {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`rate limit must be a positive integer, got ${limit}`);
  return { limit, burstCap: Math.floor(limit / 2) };
}

export function allowance(policy: RateLimitPolicy, previousMinuteUsed: number): number {
  return policy.limit + Math.min(policy.burstCap, Math.max(0, policy.limit - previousMinuteUsed));
}

/** Start of the calendar minute (UTC) holding `ms`. */
export function minuteStart(ms: number): number {
  return Math.floor(ms / 60_000) * 60_000;
}

/** `yyyy-mm-ddThh:mm` of the minute starting at `startMs`. */
export function minuteLabel(startMs: number): string {
  return new Date(startMs).toISOString().slice(0, 16);
}

/** What a caller learns about its limit: sent as X-RateLimit-* headers (and Retry-After on 429). */
export interface RateLimitStatus {
  /** This minute's allowance (limit plus carried burst). */
  readonly limit: number;
  readonly remaining: number;
  /** Epoch seconds at which the next minute starts. */
  readonly reset: number;
  /** Whole seconds until then (at least 1). */
  readonly retryAfter: number;
}

export function rateLimitStatus(allowed: number, used: number, nowMs: number): RateLimitStatus {
  const next = minuteStart(nowMs) + 60_000;
  return { limit: allowed, remaining: Math.max(0, allowed - used), reset: next / 1000, retryAfter: Math.max(1, Math.ceil((next - nowMs) / 1000)) };
}

export function rateLimitHeaders(status: RateLimitStatus): Record<string, string> {
  return { 'x-ratelimit-limit': String(status.limit), 'x-ratelimit-remaining': String(status.remaining), 'x-ratelimit-reset': String(status.reset) };
}
