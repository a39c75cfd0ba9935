import Stripe from 'stripe';
import { stripeSdk, type StripeAccountConfig } from './stripe-sdk';
import type { StripeParams } from '../../../schemas/billing/provider-params';
import { RequestLog, runAttempts, classifyFailureStatus, type AttemptResult } from './attempts';
import { resolveClientOptions, type ClientOptions } from './client-options';
import { correctionDelta, type ProviderClient, type UsageReportRequest } from './provider-port';
import { parseRetryAfter, type RetryRuntime } from './retry-policy';

export type StripeClientConfig = StripeAccountConfig;

/** Stripe refuses meter events older than 35 days; an hour's margin keeps a slow retry inside. */
const OLDEST_TIMESTAMP_MS = 35 * 86_400_000 - 3_600_000;

/** What the meter event create call gets, built separately so it can be checked without a network. */
export function stripeMeterEvent(request: UsageReportRequest<StripeParams>, now: Date): Stripe.Billing.MeterEventCreateParams {
  const { params } = request;
  // The window's first second: Stripe bills the event in the invoice period containing it, and a
  // correction lands in the same period as the usage it corrects. A correction of a window older
  // than Stripe accepts is dated at the oldest time it accepts (its period's invoice is final by then).
  const timestampMs = Math.max(request.window.start.getTime(), now.getTime() - OLDEST_TIMESTAMP_MS);
  return {
    event_name: params.event_name,
    identifier: request.idempotencyKey,
    timestamp: Math.floor(timestampMs / 1000),
    payload: {
      [params.customer_payload_key]: request.subscription.customerId ?? request.subscription.companyId,
      // Meters sum event values, so a later version sends only the change (negative when usage went down).
      [params.value_payload_key]: correctionDelta(request).toString(),
    },
  };
}

/**
 * Stripe Billing Meters through the official SDK. The SDK's own retries are off (maxNetworkRetries 0)
 * so that every attempt is recorded and the shared policy decides; each attempt sends the same
 * `identifier` and `Idempotency-Key`, so Stripe counts the event once however often it is retried.
 */
export function createStripeClient(config: StripeClientConfig, options?: ClientOptions): ProviderClient<StripeParams> {
  const { policy, runtime } = resolveClientOptions(options);
  const stripe = stripeSdk(config, { maxNetworkRetries: 0, timeoutMs: policy.timeoutMs });
  return {
    provider: 'stripe',
    async report(request) {
      const log = new RequestLog();
      const event = stripeMeterEvent(request, runtime.now());
      return runAttempts({
        policy,
        runtime,
        log,
        attempt: async () => {
          const startedAt = runtime.now();
          try {
            const created = await stripe.billing.meterEvents.create(event, { idempotencyKey: request.idempotencyKey });
            const replayed = created.lastResponse?.headers?.['idempotent-replayed'] === 'true';
            return log.record(request.idempotencyKey, startedAt, {
              kind: 'success',
              status: created.lastResponse?.statusCode ?? 200,
              reference: created.identifier,
              duplicate: replayed,
            });
          } catch (error) {
            return log.record(request.idempotencyKey, startedAt, classifyStripeError(error, runtime));
          }
        },
      });
    },
  };
}

function classifyStripeError(error: unknown, runtime: RetryRuntime): AttemptResult {
  if (!(error instanceof Stripe.errors.StripeError)) {
    return { kind: 'retryable', status: 0, code: 'network_error', message: error instanceof Error ? error.message : String(error) };
  }
  if (error.type === 'StripeConnectionError' || error.statusCode === undefined) {
    const timedOut = /timeout/i.test(error.message);
    return { kind: 'retryable', status: 0, code: timedOut ? 'timeout' : 'network_error', message: error.message };
  }
  const retryAfter = error.headers?.['retry-after'];
  return classifyFailureStatus(
    error.statusCode,
    error.code ?? error.type,
    error.message,
    parseRetryAfter(typeof retryAfter === 'string' ? retryAfter : undefined, runtime.now()),
  );
}
