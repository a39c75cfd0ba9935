import { createHmac, timingSafeEqual } from 'node:crypto';
import type * as z from 'zod';
import { UnauthorizedError } from './errors';

/**
 * Compact signed claims, `<prefix>.<base64url JSON>.<HMAC-SHA256>`, under a key derived from a root
 * key and a label: one secret serves several kinds of token, and no kind passes for another (its
 * prefix and its derived key differ). Shared-view tokens and unsubscribe links are made this way.
 */
export interface SignedClaimsCodec<T> {
  sign(claims: T, rootKey: Buffer): string;
  /** The claims of a well-formed, well-signed token; a 401 naming `token` otherwise. */
  verify(token: string, rootKey: Buffer): T;
}

export function signedClaimsCodec<T>(options: { prefix: string; keyLabel: string; schema: z.ZodType<T>; noun: string }): SignedClaimsCodec<T> {
  const { prefix, keyLabel, schema, noun } = options;
  const derived = new WeakMap<Buffer, Buffer>();
  const keyOf = (rootKey: Buffer) => {
    let key = derived.get(rootKey);
    if (!key) {
      key = createHmac('sha256', rootKey).update(keyLabel).digest();
      derived.set(rootKey, key);
    }
    return key;
  };
  const signature = (input: string, rootKey: Buffer) => createHmac('sha256', keyOf(rootKey)).update(input).digest('base64url');
  const invalid = (reason: string) => new UnauthorizedError(`The ${noun} ${reason}`, [{ field: 'token', reason }]);
  return {
    sign(claims, rootKey) {
      const payload = Buffer.from(JSON.stringify(schema.parse(claims)), 'utf8').toString('base64url');
      return `${prefix}.${payload}.${signature(`${prefix}.${payload}`, rootKey)}`;
    },
    verify(token, rootKey) {
      const parts = token.split('.');
      if (parts.length !== 3 || parts[0] !== prefix) throw invalid(`is not ${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`);
      const [, payload, given] = parts as [string, string, string];
      const expected = Buffer.from(signature(`${prefix}.${payload}`, rootKey));
      const givenBytes = Buffer.from(given);
      if (expected.length !== givenBytes.length || !timingSafeEqual(expected, givenBytes)) throw invalid('has an invalid signature');
      try {
        return schema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
      } catch {
        throw invalid('has malformed claims');
      }
    },
  };
}
