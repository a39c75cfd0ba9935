import type { components } from './api-schema';
import { exactPhrase, queryFromText } from './query-text';

/** The fields a picker offers and the query-string clauses it writes (field-values.ts reads them from the API). */

type FieldType = components['schemas']['FieldList']['properties'][string]['type'];

/** A field a filter or grouping can use, by the name a query gives it (`action_name.raw` for exact text). */
export interface PickableField {
  readonly name: string;
  readonly type: FieldType | 'virtual';
}

/** Fields people reach for first, listed before the rest (when the app's events hold them). */
const FIRST_FIELDS = [
  'action_name.raw',
  'request.route.raw',
  'virtual_event_types',
  'request.verb.raw',
  'response.status',
  'user_id.raw',
  'company_id.raw',
  'event_type',
];
const VIRTUAL_EVENT_TYPES: PickableField = { name: 'virtual_event_types', type: 'virtual' };
/** Where top values are read from: recent enough to be current, long enough to hold rare ones. */
export const VALUES_WINDOW = { from: '-30d', to: 'now' } as const;
export const VALUES_SHOWN = 20;

/** The catalogue as pickable fields: text as its exact `.raw` form, dates and objects left out, virtual event types added. */
export function pickableFields(properties: components['schemas']['FieldList']['properties']): PickableField[] {
  const fields: PickableField[] = [VIRTUAL_EVENT_TYPES];
  for (const [name, property] of Object.entries(properties)) {
    if (property.type === 'date' || property.type === 'object' || name === '_id' || name.endsWith('.raw')) continue;
    fields.push({ name: property.type === 'text' ? `${name}.raw` : name, type: property.type === 'text' ? 'keyword' : property.type });
  }
  const rank = (field: PickableField) => {
    const first = FIRST_FIELDS.indexOf(field.name);
    return first === -1 ? FIRST_FIELDS.length : first;
  };
  return fields.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

/** A value as a query-string clause of its field: numbers and booleans bare, anything else an exact phrase. */
export function fieldClause(field: PickableField, value: string): string {
  const bare = field.type === 'long' || field.type === 'double' ? /^-?\d+(\.\d+)?$/.test(value) : field.type === 'boolean' && /^(true|false)$/.test(value);
  return `${field.name}:${bare ? value : exactPhrase(value)}`;
}

/** A clause added to a filter: ANDed with what is there. */
export function withClause(filter: string | undefined, clause: string): string {
  const current = filter?.trim() ?? '';
  return current === '' ? clause : `${current} AND ${clause}`;
}

/**
 * The editor's text with a picked query-string clause added (AND): appended to query-string text,
 * or, when the text is JSON, the JSON query and the clause both required (text that does not parse
 * is left as it is, for its own error to show).
 */
export function withQueryClause(text: string, clause: string): string {
  if (!text.trim().startsWith('{')) return withClause(text, clause);
  try {
    return JSON.stringify({ bool: { filter: [queryFromText(text), { query_string: { query: clause } }] } }, null, 2);
  } catch {
    return text;
  }
}
