/**
 * Runs an async setup step on first use and shares its result; a failure is not cached, so the next
 * call tries again (a cold start with a briefly unreachable dependency recovers by itself).
 */
export function retryableOnce<T>(setup: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= setup().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
