/** Sizes as DuckDB's memory settings read them: `1GB` is 10^9 bytes, `1GiB` 2^30. */
const UNIT_BYTES: Record<string, number> = { kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

/** A size DuckDB's memory_limit accepts: a number and one of UNIT_BYTES's units (kb … tb, kib … tib). */
export const MEMORY_LIMIT = /^(\d+(?:\.\d+)?)\s*([kmgt]i?b)$/i;

export function bytesOfSize(size: string): number {
  const match = MEMORY_LIMIT.exec(size.trim());
  if (match === null) throw new Error(`${size} is not a size such as 1GB or 512MB`);
  return Math.floor(Number(match[1]) * UNIT_BYTES[match[2]!.toLowerCase()]!);
}
