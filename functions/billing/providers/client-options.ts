import type { FetchLike } from './attempts';
import { DEFAULT_RETRY_POLICY, systemRetryRuntime, type RetryPolicy, type RetryRuntime } from './retry-policy';

/** What every provider client accepts besides its credentials and base URL. */
export interface ClientOptions {
  readonly retry?: Partial<RetryPolicy>;
  /** Clock, sleep and randomness (tests pass fast ones). */
  readonly runtime?: RetryRuntime;
  /** HTTP transport for the fetch-based clients (defaults to the global fetch). */
  readonly fetch?: FetchLike;
}

export interface ResolvedClientOptions {
  readonly policy: RetryPolicy;
  readonly runtime: RetryRuntime;
  readonly fetchFn: FetchLike;
}

export function resolveClientOptions(options: ClientOptions | undefined): ResolvedClientOptions {
  return {
    policy: { ...DEFAULT_RETRY_POLICY, ...options?.retry },
    runtime: options?.runtime ?? systemRetryRuntime,
    fetchFn: options?.fetch ?? ((url, init) => fetch(url, init)),
  };
}
