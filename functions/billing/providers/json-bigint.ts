/**
 * JSON text in which bigints are written as plain integer literals (no precision lost on the way out).
 * Plain JSON.stringify first: it refuses a bigint with a TypeError at once, and only then is the
 * (several times slower) replacer pass paid. Callers that can, hand in `jsonInteger` values.
 */
export function jsonWithBigInts(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
  const marker = '\u0000bigint:';
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${marker}${v.toString()}` : v));
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

/** A bigint as a JSON-safe number when it is one exactly (the same literal either way), else the bigint. */
export function jsonInteger(value: bigint): number | bigint {
  return value >= -MAX_SAFE && value <= MAX_SAFE ? Number(value) : value;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
