/**
 * One read of a provider's API as the sync makes it (Chargebee, Recurly, Zuora; Stripe's SDK has its
 * own): a 404 is "gone" (undefined), a 2xx its JSON; a 429 is waited out (its Retry-After, else a
 * growing pause) and a 5xx or a lost connection tried again, up to READ_ATTEMPTS times; any other
 * answer is a ProviderReadError naming the provider and status.
 */

const READ_ATTEMPTS = 6;
const PAUSE_MS = 500;

export class ProviderReadError extends Error {
  constructor(
    provider: string,
    readonly status: number,
    detail: string,
  ) {
    super(`${provider} answered ${status || 'nothing'}: ${detail.slice(0, 300)}`);
    this.name = 'ProviderReadError';
  }
}

export async function readWithRetries(provider: string, read: () => Promise<Response>): Promise<unknown> {
  for (let attempt = 1; ; attempt += 1) {
    let status = 0;
    let retryAfterMs: number | undefined;
    try {
      const response = await read();
      status = response.status;
      if (status === 404) return undefined;
      if (response.ok) return await response.json();
      const retryAfter = Number(response.headers.get('retry-after'));
      if (Number.isFinite(retryAfter) && retryAfter > 0) retryAfterMs = retryAfter * 1000;
      if (status !== 429 && status < 500) throw new ProviderReadError(provider, status, await response.text());
    } catch (error) {
      if (error instanceof ProviderReadError) throw error;
      // No answer (a lost connection): as retryable as a 5xx.
    }
    if (attempt >= READ_ATTEMPTS) throw new ProviderReadError(provider, status, `gave up after ${READ_ATTEMPTS} attempts`);
    await new Promise((done) => setTimeout(done, retryAfterMs ?? PAUSE_MS * 2 ** (attempt - 1)));
  }
}
