import { ValidationError } from '../errors';

/**
 * Strings of stored bodies must be valid Unicode: an unpaired UTF-16 surrogate (`"\ud800"` in JSON)
 * has no UTF-8 form, so it could not be stored and read back as sent. Refused with a 400 naming
 * the member. Only JSON text with a `\u` escape can hold one (decoded UTF-8 never does).
 */

const UNPAIRED_SURROGATE = /\p{Surrogate}/u;

export function mayHoldUnpairedSurrogates(text: string): boolean {
  return text.includes('\\u') || UNPAIRED_SURROGATE.test(text);
}

/** Throws a ValidationError naming the first member (or member name) holding an unpaired surrogate. */
export function assertWellFormedStrings(value: unknown, path = ''): void {
  if (typeof value === 'string') {
    if (UNPAIRED_SURROGATE.test(value)) throw refused(path || 'body');
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => assertWellFormedStrings(item, `${path}[${i}]`));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, member] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (UNPAIRED_SURROGATE.test(key)) throw refused(at);
    assertWellFormedStrings(member, at);
  }
}

function refused(field: string): ValidationError {
  return new ValidationError(`The body holds text that is not valid Unicode (at ${field})`, [
    { field, reason: 'contains an unpaired UTF-16 surrogate, which has no UTF-8 form; send valid Unicode text' },
  ]);
}
