/**
 * When and how long to wait between attempts at a provider: 5xx, 429 and timeouts are retried with
 * exponential backoff and jitter; a 429's Retry-After is honoured up to a cap. Clock, sleep and
 * randomness are injected so tests run without waiting.
 */

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** The longest Retry-After honoured; a provider asking for more is retried after this. */
  readonly retryAfterCapMs: number;
  /** Each attempt is abandoned after this long and counts as a timeout. */
  readonly timeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  retryAfterCapMs: 60_000,
  timeoutMs: 15_000,
};

export interface RetryRuntime {
  sleep(ms: number): Promise<void>;
  now(): Date;
  /** Uniform in [0, 1). */
  random(): number;
}

export const systemRetryRuntime: RetryRuntime = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  now: () => new Date(),
  random: Math.random,
};

/**
 * Delay after failed attempt `attempt` (1-based): "equal jitter" — half of the exponential step is
 * fixed, half random — so many runs retrying at once spread out but never retry immediately.
 */
export function backoffDelayMs(policy: RetryPolicy, attempt: number, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

/** A Retry-After header (delta seconds or an HTTP date) in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now: Date): number | undefined {
  if (header === null || header === undefined || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}

/** The wait before the next attempt: the provider's Retry-After (capped) when it gave one, else backoff. */
export function nextDelayMs(policy: RetryPolicy, attempt: number, retryAfterMs: number | undefined, random: () => number): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.retryAfterCapMs);
  return backoffDelayMs(policy, attempt, random);
}
