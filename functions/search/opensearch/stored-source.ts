import type { FieldRef } from '../fields';
import type { IndexDocument } from '../port';

/**
 * What is sent to OpenSearch for a document, and how its `_source` is turned back into exactly
 * what was indexed.
 *
 * `request.body` / `response.body` hold a JSON object (searchable, mapped dynamically) or, with
 * `transfer_encoding: base64`, a string. One field cannot be both an object and a string in a
 * mapping, so any body that is not a JSON object is moved into `index_meta.bodies`, a field
 * OpenSearch stores without parsing, and its place is left `null`. `index_meta.time` carries the
 * document time that count() filters on, for profiles too; `index_meta.doc_id` the document's own
 * id (without the app prefix of `_id`), which searches sort on. Reads undo all three.
 */

export const INDEX_META_FIELD = 'index_meta';
/** Where the document time and the plain document id are searchable. */
export const TIME_FIELD = `${INDEX_META_FIELD}.time`;
export const DOC_ID_FIELD = `${INDEX_META_FIELD}.doc_id`;
const BODY_HOLDERS = ['request', 'response'] as const;

/** Fields the templates map as keywords by their full path (templates.ts); any string field whose own name ends in `_id` is one too. */
export const KEYWORD_PATHS = ['org_id', 'app_id', 'direction', 'session_token', 'event_type', 'request.verb', 'transaction_id'] as const;
const KEYWORD_PATH_SET: ReadonlySet<string> = new Set(KEYWORD_PATHS);

/** Whether the mapping holds the field's strings as a keyword already: its `.raw` form is the field itself. */
export function mappedAsKeyword(path: string): boolean {
  return KEYWORD_PATH_SET.has(path) || path.slice(path.lastIndexOf('.') + 1).endsWith('_id');
}

/**
 * A field as the mapping names it. `time` lives under index_meta; so does `_id` (and `_id.raw`):
 * OpenSearch's own `_id` carries the app prefix and cannot be sorted or aggregated on, so every
 * clause but the `ids` query uses the plain id in doc_id. A keyword field has no `.raw` subfield
 * (a second copy of every id cost 90 bytes an event): `user_id.raw` reads `user_id`.
 */
export function mappedField(field: FieldRef): string {
  if (field.path === '_id') return DOC_ID_FIELD;
  const path = field.path === 'time' ? TIME_FIELD : field.path;
  return field.raw && !mappedAsKeyword(path) ? `${path}.raw` : path;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function toStoredSource(document: IndexDocument): JsonObject {
  const stored: JsonObject = { ...document.source };
  const bodies: JsonObject = {};
  for (const holder of BODY_HOLDERS) {
    const part = stored[holder];
    if (!isObject(part)) continue;
    const body = part.body;
    if (body === undefined || body === null || isObject(body)) continue;
    bodies[holder] = body;
    stored[holder] = { ...part, body: null };
  }
  const meta: JsonObject = { time: document.time, doc_id: document.id };
  if (Object.keys(bodies).length > 0) meta.bodies = bodies;
  stored[INDEX_META_FIELD] = meta;
  return stored;
}

export function fromStoredSource(stored: JsonObject): JsonObject {
  // A copy without the field, rather than `delete` on a copy: a deleted property leaves V8 a slower,
  // dictionary-shaped object for everything that reads the hit after this.
  const { [INDEX_META_FIELD]: meta, ...source } = stored;
  if (!isObject(meta)) return stored;
  const bodies = meta.bodies;
  if (isObject(bodies)) {
    for (const holder of BODY_HOLDERS) {
      const part = source[holder];
      if (holder in bodies && isObject(part)) source[holder] = { ...part, body: bodies[holder] };
    }
  }
  return source;
}
