import { createHash, createHmac, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson } from '../../../values/canonical-json';

/**
 * Each app's statement signing key: an Ed25519 key pair whose seed is derived from the service's
 * signing key, the app's org and id, and a label of its own. Nothing is stored: the same key comes
 * back in every Lambda, a key passes for no other app's, and the public half can be published.
 */

const KEY_LABEL = 'usage-analytics statement signing key v1';
/** PKCS #8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410): this prefix, then the seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
export const STATEMENT_SIGNATURE_ALGORITHM = 'Ed25519';

export interface StatementTenant {
  readonly orgId: string;
  readonly appId: string;
}

export interface StatementKeyPair {
  readonly keyId: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** The raw 32-byte public key, base64url. */
  readonly publicKeyRaw: string;
  readonly publicKeyPem: string;
}

const derived = new WeakMap<Buffer, Map<string, StatementKeyPair>>();

export function statementKeyPair(rootKey: Buffer, tenant: StatementTenant): StatementKeyPair {
  const known = derived.get(rootKey) ?? new Map<string, StatementKeyPair>();
  derived.set(rootKey, known);
  const name = `${tenant.orgId}\u0000${tenant.appId}`;
  const found = known.get(name);
  if (found) return found;
  const seed = createHmac('sha256', rootKey).update(`${KEY_LABEL}\u0000${name}`).digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const pair: StatementKeyPair = {
    // Names the key, not the app: a statement says which key signed it, and the published key says its id.
    keyId: createHash('sha256').update(raw).digest('base64url').slice(0, 16),
    privateKey,
    publicKey,
    publicKeyRaw: raw.toString('base64url'),
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
  };
  known.set(name, pair);
  return pair;
}

/** The bytes a statement's signature covers: the statement without its `signature`, as canonical JSON. */
export function signedBytes(statement: Record<string, unknown>): Buffer {
  const { signature: _signature, ...signed } = statement;
  return Buffer.from(canonicalJson(signed), 'utf8');
}

export function signStatement(pair: StatementKeyPair, statement: Record<string, unknown>): string {
  return sign(null, signedBytes(statement), pair.privateKey).toString('base64url');
}

export function statementSignatureHolds(pair: StatementKeyPair, statement: Record<string, unknown>, signature: string): boolean {
  const bytes = Buffer.from(signature, 'base64url');
  return bytes.length === 64 && verify(null, signedBytes(statement), pair.publicKey, bytes);
}
