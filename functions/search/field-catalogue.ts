import type { IndexKind, SearchableIndex, SearchContext } from './port';
import { resolveField } from './fields';

/** How many of the tenant's newest documents the catalogue of fields is read from. */
export const CATALOGUE_SAMPLE = 1000;

export type FieldType = 'keyword' | 'text' | 'date' | 'long' | 'double' | 'boolean' | 'object';

export interface FieldCatalogue {
  /** Dotted paths a query can use; strings searchable as text also list their `.raw` keyword form. */
  properties: Record<string, { type: FieldType; fields?: { raw: { type: 'keyword' } } }>;
}

/**
 * The fields a query can use, read from the caller's own documents (never an index mapping shared
 * with other tenants, which would reveal their field names).
 */
export async function fieldCatalogue(index: SearchableIndex, context: SearchContext): Promise<FieldCatalogue> {
  const result = await index.search(context, {
    query: { type: 'match_all' },
    size: CATALOGUE_SAMPLE,
    from: 0,
    sort: [],
    _source: { includes: [], excludes: [] },
    track_total_hits: false,
    aggs: {},
  });
  const properties: FieldCatalogue['properties'] = {};
  for (const hit of result.hits.hits) collect(context.kind, hit._source ?? {}, '', properties);
  properties['_id'] = { type: 'keyword' };
  return { properties: Object.fromEntries(Object.entries(properties).sort(([a], [b]) => a.localeCompare(b))) };
}

function collect(kind: IndexKind, value: Record<string, unknown>, prefix: string, into: FieldCatalogue['properties']): void {
  for (const [key, child] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const element = Array.isArray(child) ? child.find((c) => c !== null && c !== undefined) : child;
    if (element === null || element === undefined) continue;
    if (typeof element === 'object') {
      collect(kind, element as Record<string, unknown>, path, into);
      continue;
    }
    if (into[path]) continue;
    const declared = resolveField(kind, path).type;
    if (declared === 'date') into[path] = { type: 'date' };
    else if (declared === 'keyword' || declared === 'id') into[path] = { type: 'keyword' };
    else if (typeof element === 'number') into[path] = { type: Number.isInteger(element) ? 'long' : 'double' };
    else if (typeof element === 'boolean') into[path] = { type: 'boolean' };
    else into[path] = { type: 'text', fields: { raw: { type: 'keyword' } } };
  }
}
