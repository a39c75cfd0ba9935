import type { HttpResult } from './types';

/** CORS is open on both APIs (spec: `Access-Control-Allow-Origin: *`). */
export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'x-moesif-config-etag, x-config-etag, retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, x-next-before-id',
};

export function jsonResult(status: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...CORS_HEADERS, ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
  };
}
