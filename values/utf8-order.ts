/**
 * Strings in the order of their UTF-8 bytes: how OpenSearch orders keywords and DuckDB orders
 * VARCHARs, so code that walks two sorted lists of ids side by side agrees with both. It is UTF-16
 * order with the surrogates (characters past U+FFFF) moved above U+E000–U+FFFF.
 */
export function compareUtf8(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

const codePointRank = (unit: number): number => (unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit);
