/**
 * Recursive merge of a profile update into the stored profile (spec: "new properties merged in
 * recursively, so only changed fields need to be sent"). Objects merge key by key; arrays, scalars
 * and null replace; undefined leaves the stored value. Merging the same update twice is a no-op,
 * which makes stream retries safe.
 */
export function deepMerge(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const current = Object.hasOwn(merged, key) ? merged[key] : undefined;
    // defineProperty, not assignment: a "__proto__" key in customer metadata must stay data, never a prototype.
    Object.defineProperty(merged, key, {
      value: isPlainObject(value) && isPlainObject(current) ? deepMerge(current, value) : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return merged;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
