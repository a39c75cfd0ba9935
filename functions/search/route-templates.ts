/**
 * Route templates: what API calls are grouped by. `/items/195` and `/items/104` are one route,
 * `/items/:id`, so a breakdown by route shows endpoints rather than one row per id. A template comes
 * from the first of the app's own patterns that matches the path, else from the path with each
 * segment that looks like an identifier replaced by `:id`.
 */

/** The placeholder of an identifier found in a path. */
export const ID_PLACEHOLDER = ':id';

const NUMBER = /^\d+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A hash or hex id (MongoDB ObjectId, MD5, SHA-1, SHA-256): 16 or more hex digits, one a digit. */
const HEX_ID = /^(?=[^0-9]*[0-9])[0-9a-f]{16,}$/i;
/** A prefixed id as Stripe and others issue them (`cus_NffrFeUfNV2Hib`): a short prefix, `_`, 8+ characters with a digit. */
const PREFIXED_ID = /^[A-Za-z]{1,12}_(?=[A-Za-z]*[0-9])[A-Za-z0-9]{8,}$/;
/** An opaque token (ULID, KSUID, base62 ids): 20 or more letters and digits, with both a letter and 2+ digits. */
const OPAQUE_ID = /^(?=(?:[^0-9]*[0-9]){2})(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9]{20,}$/;

/** Whether one path segment is an identifier rather than a name (numbers, UUIDs, hashes, opaque ids). */
export function isIdentifierSegment(segment: string): boolean {
  return NUMBER.test(segment) || UUID.test(segment) || HEX_ID.test(segment) || PREFIXED_ID.test(segment) || OPAQUE_ID.test(segment);
}

/** A template with its identifiers found automatically: each identifier segment becomes `:id`. */
export function inferredTemplate(path: string): string {
  return path
    .split('/')
    .map((segment) => (isIdentifierSegment(segment) ? ID_PLACEHOLDER : segment))
    .join('/');
}

/** A pattern segment that stands for any one non-empty path segment (`:order_id`). */
const PARAMETER = /^:[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether an app's pattern matches a path: same number of segments, literal ones equal, parameters non-empty. */
export function patternMatches(pattern: string, path: string): boolean {
  const wanted = pattern.split('/');
  const actual = path.split('/');
  if (wanted.length !== actual.length) return false;
  return wanted.every((segment, i) => (PARAMETER.test(segment) ? actual[i] !== '' : segment === actual[i]));
}

/** The route template of a URI path: the first of the app's patterns that matches it, else the inferred one. */
export function routeTemplate(path: string, patterns: readonly string[] = []): string {
  return patterns.find((pattern) => patternMatches(pattern, path)) ?? inferredTemplate(path);
}
