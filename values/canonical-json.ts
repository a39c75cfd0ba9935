/**
 * JSON in one agreed form, so a signature over it can be checked by anyone who parses the document
 * and writes it again: object keys in code-point order at every depth, no whitespace, strings and
 * numbers as JSON.stringify writes them. Undefined members are left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}
