import { RequestLog, runAttempts, type AttemptResult } from '../../../functions/billing/providers/attempts';
import { jsonWithBigInts } from '../../../functions/billing/providers/json-bigint';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, nextDelayMs, parseRetryAfter, type RetryRuntime } from '../../../functions/billing/providers/retry-policy';
import { ChargebeeParams, StripeParams, WebhookParams, ZuoraParams } from '../../../schemas/billing/provider-params';

const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1_000, retryAfterCapMs: 5_000 };

function fastRuntime(random = 0.5): RetryRuntime & { slept: number[] } {
  const slept: number[] = [];
  return {
    slept,
    sleep: async (ms) => {
      slept.push(ms);
    },
    now: () => new Date('2026-11-22T10:00:00Z'),
    random: () => random,
  };
}

describe('backoff', () => {
  it('doubles per attempt with equal jitter: between half and the whole step', () => {
    expect([1, 2, 3].map((n) => backoffDelayMs(policy, n, () => 0))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((n) => backoffDelayMs(policy, n, () => 0.999999))).toEqual([100, 200, 400]);
  });

  it('never exceeds the maximum delay', () => {
    expect(backoffDelayMs(policy, 30, () => 0.999999)).toBe(1_000);
  });
});

describe('Retry-After', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('is honoured up to the cap, and backoff applies without it', () => {
    expect(nextDelayMs(policy, 1, 3_000, () => 0)).toBe(3_000);
    expect(nextDelayMs(policy, 1, 3_600_000, () => 0)).toBe(5_000);
    expect(nextDelayMs(policy, 2, undefined, () => 0)).toBe(100);
  });
});

describe('runAttempts', () => {
  const retryable: AttemptResult = { kind: 'retryable', status: 503, code: 'unavailable', message: 'try later' };

  function scripted(results: AttemptResult[]) {
    const log = new RequestLog();
    const runtime = fastRuntime();
    let calls = 0;
    const outcome = runAttempts({
      policy,
      runtime,
      log,
      attempt: async () => log.record('job', runtime.now(), results[Math.min(calls++, results.length - 1)]!),
    });
    return { outcome, runtime, calls: () => calls };
  }

  it('retries retryable results with backoff until success', async () => {
    const run = scripted([
      retryable,
      { kind: 'retryable', status: 0, code: 'timeout', message: 'no answer' },
      { kind: 'success', status: 200, reference: 'ev_1' },
    ]);
    const outcome = await run.outcome;
    expect(outcome).toMatchObject({ success: true, providerReference: 'ev_1', duplicate: false });
    expect(outcome.requests.map((r) => [r.success, r.status_code, r.error_code])).toEqual([
      [false, 503, 'unavailable'],
      [false, 0, 'timeout'],
      [true, 200, null],
    ]);
    expect(run.runtime.slept).toEqual([75, 150]);
  });

  it('stops at the first final failure and keeps the provider message', async () => {
    const run = scripted([{ kind: 'failed', status: 400, code: 'param_invalid', message: 'quantity must be positive' }]);
    const outcome = await run.outcome;
    expect(outcome.success).toBe(false);
    expect(outcome.requests).toEqual([
      {
        job_id: 'job',
        request_time: '2026-11-22T10:00:00.000Z',
        success: false,
        status_code: 400,
        error_code: 'param_invalid',
        error_message: 'quantity must be positive',
      },
    ]);
    expect(run.calls()).toBe(1);
  });

  it('gives up after maxAttempts, every attempt recorded', async () => {
    const run = scripted([retryable]);
    const outcome = await run.outcome;
    expect(outcome.success).toBe(false);
    expect(outcome.requests).toHaveLength(4);
    expect(run.runtime.slept).toHaveLength(3);
  });

  it('waits what a 429 asks, capped', async () => {
    const run = scripted([
      { kind: 'retryable', status: 429, code: 'rate_limited', message: 'slow down', retryAfterMs: 60_000 },
      { kind: 'success', status: 200 },
    ]);
    await run.outcome;
    expect(run.runtime.slept).toEqual([5_000]);
  });
});

describe('JSON with bigints', () => {
  it('writes bigints as exact integer literals', () => {
    expect(jsonWithBigInts({ a: 12345678901234567890n, b: -3n, c: 'x', d: [1n] })).toBe('{"a":12345678901234567890,"b":-3,"c":"x","d":[1]}');
  });

  it('leaves strings that look like the marker alone', () => {
    expect(JSON.parse(jsonWithBigInts({ s: 'bigint:1' }))).toEqual({ s: 'bigint:1' });
  });
});

describe('provider params', () => {
  it('fills Stripe payload keys with Stripe defaults and keeps extra fields', () => {
    expect(StripeParams.parse({ event_name: 'api_calls', product_id: 'prod_1' })).toEqual({
      event_name: 'api_calls',
      customer_payload_key: 'stripe_customer_id',
      value_payload_key: 'value',
      product_id: 'prod_1',
    });
  });

  it('names the missing field', () => {
    const result = ChargebeeParams.safeParse({ reporting: { reporting_period: '1h' } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['item_price_id']);
  });

  it('checks reporting periods and webhook channels', () => {
    expect(ZuoraParams.safeParse({ unit_of_measure: 'Each', reporting: { reporting_period: 'hourly' } }).success).toBe(false);
    expect(WebhookParams.safeParse({ channel_ids: [], custom_plan: { plan_id: 'p' } }).success).toBe(false);
    expect(
      WebhookParams.parse({ channel_ids: ['ch1'], custom_plan: { plan_id: 'p' }, reporting: { report_when: ['period_closed'], reporting_period: '1d' } })
        .reporting?.report_when,
    ).toEqual(['period_closed']);
  });
});
