import { randomBytes } from 'node:crypto';
import type { StoredChannel } from '../../../schemas/billing/channel';

/** How long a replaced secret keeps signing deliveries, so receivers can switch without missing one. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 3600 * 1000;

/** A new signing secret: 32 random bytes, base64url, with a prefix that says what it is. */
export function generateChannelSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The secrets that sign a delivery at `now`: the current one first, then the previous one while it is valid. */
export function signingSecrets(channel: Pick<StoredChannel, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>, now: Date): string[] {
  const previousValid =
    channel.previous_secret !== undefined && channel.previous_secret_expires_at !== undefined && Date.parse(channel.previous_secret_expires_at) > now.getTime();
  return previousValid ? [channel.secret, channel.previous_secret as string] : [channel.secret];
}

/**
 * The secret fields after setting `next`: the replaced secret stays valid for 24 h. Setting the same
 * secret again changes nothing; only one previous secret is kept (rotating twice within 24 h
 * retires the oldest at once).
 */
export function rotatedSecrets(
  current: Pick<StoredChannel, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>,
  next: string,
  now: Date,
): Pick<StoredChannel, 'secret' | 'previous_secret' | 'previous_secret_expires_at'> {
  if (next === current.secret) {
    return {
      secret: current.secret,
      ...(current.previous_secret !== undefined
        ? { previous_secret: current.previous_secret, previous_secret_expires_at: current.previous_secret_expires_at }
        : {}),
    };
  }
  return { secret: next, previous_secret: current.secret, previous_secret_expires_at: new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS).toISOString() };
}

/** What the API shows instead of a secret: enough to tell two secrets apart, not to sign. */
export function secretHint(secret: string): string {
  return `…${secret.slice(-4)}`;
}
