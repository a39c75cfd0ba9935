/** JSON text in which bigints are written as plain integer literals (no precision lost on the way out). */
export function jsonWithBigInts(value: unknown): string {
  const marker = '\u0000bigint:';
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${marker}${v.toString()}` : v));
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}
