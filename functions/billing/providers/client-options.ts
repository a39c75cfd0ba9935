import type { FetchLike } from './attempts';
import { guardedFetch } from './guarded-fetch';
import { DEFAULT_RETRY_POLICY, systemRetryRuntime, type RetryPolicy, type RetryRuntime } from './retry-policy';

/** What every provider client accepts besides its credentials and base URL. */
export interface ClientOptions {
  readonly retry?: Partial<RetryPolicy>;
  /** Clock, sleep and randomness (tests pass fast ones). */
  readonly runtime?: RetryRuntime;
  /** HTTP transport for the fetch-based clients (defaults to the global fetch; webhooks: see webhookTransport). */
  readonly fetch?: FetchLike;
  /**
   * Webhook deliveries only (tenant-chosen URLs): deliver to loopback, private and link-local
   * addresses too. The deployment setting WEBHOOK_ALLOW_PRIVATE_TARGETS; false when absent.
   * Other providers' base URLs are the operator's configuration and are not checked.
   */
  readonly allowPrivateTargets?: boolean;
  /** Alert Slack channels only: hosts besides Slack's own that Slack URLs may name (SLACK_WEBHOOK_HOSTS). */
  readonly slackHosts?: readonly string[];
}

export interface ResolvedClientOptions {
  readonly policy: RetryPolicy;
  readonly runtime: RetryRuntime;
  readonly fetchFn: FetchLike;
}

/**
 * The transport of webhook deliveries: an injected `fetch` as given (its injector owns the target
 * check), else the guarded transport that refuses non-public addresses unless allowed.
 */
export function webhookTransport(options: ClientOptions | undefined): FetchLike {
  return options?.fetch ?? guardedFetch({ allowPrivateTargets: options?.allowPrivateTargets ?? false });
}

export function resolveClientOptions(options: ClientOptions | undefined): ResolvedClientOptions {
  return {
    policy: { ...DEFAULT_RETRY_POLICY, ...options?.retry },
    runtime: options?.runtime ?? systemRetryRuntime,
    fetchFn: options?.fetch ?? ((url, init) => fetch(url, init)),
  };
}
