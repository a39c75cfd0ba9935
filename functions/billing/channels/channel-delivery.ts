import type { FetchLike } from '../providers/attempts';
import { SIGNATURE_HEADER, signWebhook } from '../providers/webhook-signature';

/** A channel as deliveries need it: where, with which extra headers, signed with which secrets. */
export interface DeliveryChannel {
  readonly id: string;
  readonly name: string;
  readonly url: string;
  readonly status: 'active' | 'inactive';
  readonly headers: Readonly<Record<string, string>>;
  /** Current secret first; the previous one while it is still valid (rotation). */
  readonly secrets: readonly string[];
}

/**
 * `X-Usage-Signature` signed with every secret: `t=<s>,v1=<hmac with current>[,v1=<hmac with previous>]`.
 * Receivers accept a delivery when any v1 matches (webhook-signature.ts), so one still holding the
 * old secret keeps verifying during the 24 h after a rotation.
 */
export function signatureHeader(body: string | Buffer, secrets: readonly string[], timestampSeconds: number): string {
  const [first, ...rest] = secrets.map((secret) => signWebhook(body, secret, timestampSeconds));
  if (first === undefined) throw new Error('a channel has at least one secret');
  return [first, ...rest.map((signed) => signed.slice(signed.indexOf(',') + 1))].join(',');
}

/**
 * The transport of a channel's deliveries: adds the channel's own headers (never replacing the
 * service's) and, while a rotation is in progress, the previous secret's signature over the same
 * timestamp and body. The webhook client signs with the current secret; this adds the rest.
 * `base` is the transport underneath (webhookTransport: the target-checking one in deployments).
 */
export function channelFetch(channel: DeliveryChannel, base: FetchLike): FetchLike {
  return (url, init) => {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(channel.headers)) if (!headers.has(name)) headers.set(name, value);
    const signed = headers.get(SIGNATURE_HEADER);
    const timestamp = Number(/(?:^|,)t=(\d+)/.exec(signed ?? '')?.[1]);
    if (signed && Number.isInteger(timestamp) && channel.secrets.length > 1 && (typeof init.body === 'string' || Buffer.isBuffer(init.body))) {
      headers.set(SIGNATURE_HEADER, signatureHeader(init.body, channel.secrets, timestamp));
    }
    return base(url, { ...init, headers });
  };
}
