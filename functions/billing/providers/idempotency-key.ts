import { createHash, hash } from 'node:crypto';
import { IsoTextCache } from '../iso-text-cache';

/** What makes one provider request unique: a correction of the same window is a new version. */
export interface ReportIdentity {
  readonly orgId: string;
  readonly appId: string;
  readonly meterId: string;
  readonly subscriptionId: string;
  readonly windowStart: Date;
  readonly windowEnd: Date;
  readonly reportVersion: number;
  /** The channel or provider the request goes to (a report may go to several webhook channels). */
  readonly destination: string;
}

/**
 * A deterministic idempotency key: retrying the same report version to the same destination always
 * sends the same key, so the provider drops the duplicate (Stripe `identifier`, Chargebee
 * `dedupe_option`, Recurly `merchant_tag`, webhook event id); a correction (new version) gets a new
 * one. Hex SHA-256 truncated to 48 characters fits every provider's limit.
 */
export function idempotencyKey(identity: ReportIdentity): string {
  const material = [
    identity.orgId,
    identity.appId,
    identity.meterId,
    identity.subscriptionId,
    isoStart.of(identity.windowStart),
    isoEnd.of(identity.windowEnd),
    String(identity.reportVersion),
    identity.destination,
  ].join('\u001f');
  // One-shot hash (Node ≥ 20.12): the run computes millions of keys, a Hash object each costs ~3×.
  const digest = typeof hash === 'function' ? hash('sha256', material, 'hex') : createHash('sha256').update(material).digest('hex');
  // `uab_${digest.slice(0, 44)}` as one flat string: the concatenation would keep a cons string, a
  // slice and the whole digest (three objects) alive with every report that holds its key.
  keyBytes.write(digest, KEY_PREFIX.length, KEY_HEX_CHARS, 'latin1');
  return keyBytes.toString('latin1', 0, KEY_PREFIX.length + KEY_HEX_CHARS);
}

const KEY_PREFIX = 'uab_';
const KEY_HEX_CHARS = 44;
const keyBytes = Buffer.alloc(KEY_PREFIX.length + KEY_HEX_CHARS);
keyBytes.write(KEY_PREFIX, 0, 'latin1');

// A run asks for the keys of thousands of reports of one window in a row.
const isoStart = new IsoTextCache();
const isoEnd = new IsoTextCache();
