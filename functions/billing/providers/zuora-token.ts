import { trimTrailingSlash } from './attempts';

/**
 * A Zuora OAuth client-credentials token for reads (the sync, reconciliation): cached until shortly
 * before Zuora says it expires, and fetched again when a read answers 401.
 */
export interface ZuoraAccountConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly baseUrl: string;
}

const RENEW_MARGIN_MS = 60_000;

export function zuoraReads(config: ZuoraAccountConfig, fetchFn: typeof fetch = fetch): (path: string) => Promise<Response> {
  const base = trimTrailingSlash(config.baseUrl);
  let token: { value: string; renewAt: number } | undefined;
  const issue = async () => {
    const response = await fetchFn(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ client_id: config.clientId, client_secret: config.clientSecret, grant_type: 'client_credentials' }).toString(),
    });
    const answer = (await response.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; error_description?: string };
    if (!response.ok || !answer.access_token) throw new Error(`Zuora refused a token (${response.status}): ${answer.error_description ?? ''}`);
    token = { value: answer.access_token, renewAt: Date.now() + (answer.expires_in ?? 3600) * 1000 - RENEW_MARGIN_MS };
    return token.value;
  };
  return async (path) => {
    const bearer = token && Date.now() < token.renewAt ? token.value : await issue();
    const read = (value: string) => fetchFn(`${base}${path}`, { headers: { authorization: `Bearer ${value}`, accept: 'application/json' } });
    const response = await read(bearer);
    return response.status === 401 ? read(await issue()) : response;
  };
}
