/** A query-string phrase matching exactly this value (quotes and backslashes escaped). */
export function exactPhrase(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}
