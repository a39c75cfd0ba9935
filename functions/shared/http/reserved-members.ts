import { ValidationError, type FieldIssue } from '../errors';

/**
 * Member names that JavaScript and the DynamoDB marshaller treat as object machinery rather than data.
 *
 * - `__proto__`: assigning it sets an object's prototype, so every copy made by assignment (zod's
 *   records and loose objects, the marshaller, the SDK's serialiser) drops it without a word. It is
 *   kept where the service stores the object as sent (`keptUnder`: the collector's metadata and
 *   bodies, stored as JSON text) and refused with a 400 naming it everywhere else, never dropped.
 * - `constructor` holding an object with a `name` of a built-in type: the marshaller decides a
 *   value's DynamoDB type from `value.constructor.name`, so such a value would be stored as a set,
 *   a number or a boolean. Any other `constructor` member is ordinary data.
 * - Text with an unpaired UTF-16 surrogate (`"\ud800"` in JSON), in a member name or a string, where
 *   the body is stored in DynamoDB maps: it has no UTF-8 form, so it could not be stored and read
 *   back as sent. The collector keeps what SDKs send (a body cut mid-pair is still an event).
 */
const MISREAD_CONSTRUCTOR_NAMES = new Set(['Set', 'Map', 'Boolean', 'Number', 'String']);
const MAX_LISTED = 20;
const UNPAIRED_SURROGATE = /\p{Surrogate}/u;
const UNPAIRED_REASON = 'contains an unpaired UTF-16 surrogate, which has no UTF-8 form; send valid Unicode text';

export interface ReservedMemberRules {
  /** Top-level-relative member names under which `__proto__` is data (any depth below them). */
  readonly keptUnder?: ReadonlySet<string>;
  /** Whether the body is stored in DynamoDB maps (management resources): then `constructor` objects and unpaired surrogates are checked too. */
  readonly storedAsMaps: boolean;
}

/**
 * Cheap pre-check on the body text: only a body that could hold such a name (or writes one with
 * \u escapes) is walked. Each scan of a large body costs about a millisecond per 2 MB, so
 * `constructor` is looked for only where it matters.
 */
export function mayHoldReservedMembers(text: string, rules: ReservedMemberRules): boolean {
  return text.includes('\\u') || text.includes('__proto__') || (rules.storedAsMaps && (text.includes('constructor') || UNPAIRED_SURROGATE.test(text)));
}

/** Throws a 400 listing each reserved member (and, stored as maps, each text that is not valid Unicode) the body holds outside the places that keep it. */
export function assertNoReservedMembers(body: unknown, rules: ReservedMemberRules): void {
  const issues: FieldIssue[] = [];
  const visit = (value: unknown, path: string, kept: boolean) => {
    if (issues.length >= MAX_LISTED) return;
    if (typeof value === 'string') {
      if (rules.storedAsMaps && UNPAIRED_SURROGATE.test(value)) issues.push({ field: path || 'body', reason: UNPAIRED_REASON });
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, `${path}[${i}]`, kept));
      return;
    }
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      const field = path === '' ? key : `${path}.${key}`;
      if (rules.storedAsMaps && UNPAIRED_SURROGATE.test(key)) {
        issues.push({ field, reason: UNPAIRED_REASON });
        continue;
      }
      if (key === '__proto__' && !kept) {
        issues.push({
          field,
          reason: 'the member name __proto__ cannot be stored here (it is kept only inside metadata and request/response bodies); rename it',
        });
        continue;
      }
      if (rules.storedAsMaps && key === 'constructor' && isNamedObject(member)) {
        issues.push({
          field,
          reason: `an object member named constructor cannot have name "${member.name}" (it would be stored as a ${member.name}); rename one of them`,
        });
        continue;
      }
      visit(member, field, kept || (rules.keptUnder?.has(key) ?? false));
    }
  };
  if (Array.isArray(body)) body.forEach((item, index) => visitItem(item, index));
  else visit(body, '', false);
  if (issues.length > 0) throw new ValidationError(`The body holds what cannot be stored: ${issues[0]!.field}: ${issues[0]!.reason}`, issues);

  function visitItem(item: unknown, index: number) {
    const before = issues.length;
    visit(item, '', false);
    for (let i = before; i < issues.length; i++) issues[i] = { ...issues[i]!, index };
  }
}

function isNamedObject(value: unknown): value is { name: string } {
  if (typeof value !== 'object' || value === null) return false;
  const name = (value as Record<string, unknown>)['name'];
  return typeof name === 'string' && MISREAD_CONSTRUCTOR_NAMES.has(name);
}
