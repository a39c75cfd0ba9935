import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signatures of webhook deliveries. The header is
 *   `X-Usage-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`
 * The receiver recomputes the HMAC over the timestamp, a dot and the exact raw body bytes, compares
 * in constant time, and rejects timestamps outside its tolerance (replays).
 */
export const SIGNATURE_HEADER = 'x-usage-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function signWebhook(body: string | Buffer, secret: string, timestampSeconds: number): string {
  return `t=${timestampSeconds},v1=${digest(body, secret, timestampSeconds)}`;
}

export type SignatureCheck = { valid: true; timestamp: number } | { valid: false; reason: string };

export function verifyWebhook(
  body: string | Buffer,
  header: string | undefined,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): SignatureCheck {
  if (!header) return { valid: false, reason: 'no signature header' };
  const parts = new Map<string, string[]>();
  for (const part of header.split(',')) {
    const [key, ...rest] = part.trim().split('=');
    if (!key || rest.length === 0) continue;
    parts.set(key, [...(parts.get(key) ?? []), rest.join('=')]);
  }
  const timestamp = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(timestamp)) return { valid: false, reason: 'no timestamp' };
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return { valid: false, reason: 'timestamp outside the tolerance' };
  const expected = Buffer.from(digest(body, secret, timestamp), 'utf8');
  // Several v1 entries let a sender sign with an old and a new secret while rotating.
  const matches = (parts.get('v1') ?? []).some((candidate) => {
    const given = Buffer.from(candidate, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { valid: true, timestamp } : { valid: false, reason: 'signature mismatch' };
}

function digest(body: string | Buffer, secret: string, timestampSeconds: number): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.`).update(body).digest('hex');
}
