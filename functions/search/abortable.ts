/**
 * Awaits a request that a signal can stop. On abort, `cancel` tells the peer to stop working (an
 * OpenSearch request's connection is closed, which cancels its search task) and the promise rejects
 * with the signal's reason at once, whatever the peer does next.
 */
export function abortable<T>(signal: AbortSignal | undefined, request: Promise<T>, cancel?: () => void): Promise<T> {
  if (signal === undefined) return request;
  if (signal.aborted) {
    cancel?.();
    request.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      cancel?.();
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    request.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? (signal.reason as Error) : error);
      },
    );
  });
}

/**
 * Runs work that a time budget bounds: past `ms` the signal it was given aborts with `timedOut()`
 * (its queries are stopped as the backends stop them) and the caller is answered with that error at once.
 */
export async function withinTime<T>(ms: number, timedOut: () => Error, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(timedOut()), ms);
  try {
    return await abortable(controller.signal, work(controller.signal));
  } finally {
    clearTimeout(timer);
  }
}
