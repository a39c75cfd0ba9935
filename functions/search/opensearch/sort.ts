import type { Scalar, SortEntry, SortValue, UnmappedType } from '../../../schemas/search-tree';
import { ValidationError } from '../../shared/errors';
import { resolveDateMath } from '../dates/date-math';
import { resolveField, sortTypeOf as fieldSortType, type FieldRef, type SortType } from '../fields';
import type { SearchContext } from '../port';
import type { FieldSort, SearchAfter, SearchBody, SortClause } from './request-types';
import { mappedField } from './stored-source';

/**
 * Sorting and paging on OpenSearch, for hits and top_hits alike. OpenSearch cannot sort on `_id`,
 * so `_id` sorts on `index_meta.doc_id`, a keyword copy of the plain id. A document without a
 * value sorts where `missing` puts it and reports `null` in `hits[].sort` (OpenSearch reports an
 * extreme number there); `search_after` turns a `null` back into that extreme, so every page
 * continues exactly where the previous one ended. Numbers sort as doubles (`numeric_type`), so
 * monthly indices that mapped a field as long in one month and as double in another still sort
 * together.
 */

// Long.MAX_VALUE and MIN_VALUE do not survive a JS number; they are spliced into the JSON text exactly (serialiseBody).
const LONG_MAX_MARKER = '\u0000long-max\u0000';
const LONG_MIN_MARKER = '\u0000long-min\u0000';
/** Above any epoch-millis date and any long a JS number keeps exactly: OpenSearch's "missing" extremes. */
const EXTREME = 2 ** 62;

function sortTypeOf(context: SearchContext, entry: SortEntry): { type: SortType | 'score'; field?: FieldRef } {
  if (entry.field === '_score') return { type: 'score' };
  const field = resolveField(context.kind, entry.field);
  if (field.type === 'text') {
    throw new ValidationError(`Cannot sort on ${entry.field}: use ${entry.field}.raw`, [
      { field: 'sort', reason: `${entry.field} is a text field; sort on ${entry.field}.raw` },
    ]);
  }
  return { type: fieldSortType(field), field };
}

const UNMAPPED_TYPE: Record<SortType, UnmappedType> = { keyword: 'keyword', date: 'date', number: 'double', boolean: 'boolean' };

export function sortClause(context: SearchContext, entry: SortEntry): SortClause {
  const { type, field } = sortTypeOf(context, entry);
  if (type === 'score' || field === undefined) return { _score: { order: entry.order } };
  let missing: FieldSort['missing'] = entry.missing;
  if (type === 'date' && missing !== '_last' && missing !== '_first' && typeof missing !== 'boolean') {
    missing = resolveDateMath(missing as string | number, context.now, context.timeZone, false, { field: 'sort' });
  }
  const spec: FieldSort = { order: entry.order, missing, unmapped_type: entry.unmapped_type ?? UNMAPPED_TYPE[type] };
  if (type === 'number') spec.numeric_type = 'double';
  return { [mappedField(field)]: spec };
}

/** Whether OpenSearch puts a document without a value above every value (so it reports the largest extreme). */
const missingIsHighest = (entry: SortEntry): boolean => (entry.missing === '_first') === (entry.order === 'desc');

/** Our sort values as OpenSearch expects them back: plain ids (doc_id), dates as millis, null as the extreme it stands for. */
export function searchAfterValues(context: SearchContext, sort: readonly SortEntry[], values: readonly SortValue[]): SearchAfter {
  if (values.length !== sort.length) {
    throw new ValidationError(`search_after has ${values.length} values but the sort has ${sort.length}`, [
      { field: 'search_after', reason: `give one value per sort key (the sort, with the _id tie-breaker, has ${sort.length})` },
    ]);
  }
  return sort.map((entry, position) => {
    const value = values[position] ?? null;
    const { type } = sortTypeOf(context, entry);
    switch (type) {
      case 'score':
        return value ?? 0;
      case 'keyword':
        return value === null ? null : String(value);
      case 'date':
        if (value === null) return missingIsHighest(entry) ? LONG_MAX_MARKER : LONG_MIN_MARKER;
        return typeof value === 'boolean' ? value : resolveDateMath(value, context.now, context.timeZone, false, { field: `search_after[${position}]` });
      case 'number':
        if (value === null) return missingIsHighest(entry) ? 'Infinity' : '-Infinity';
        return value;
      case 'boolean':
        return value === null ? (missingIsHighest(entry) ? LONG_MAX_MARKER : LONG_MIN_MARKER) : value;
    }
  });
}

/** OpenSearch's sort values as we report them: a missing value (an extreme) as null. */
export function reportedSortValues(values: readonly unknown[] | undefined): SortValue[] | undefined {
  return values?.map((value): SortValue => {
    if (value === 'Infinity' || value === '-Infinity') return null;
    if (typeof value === 'number' && Math.abs(value) >= EXTREME) return null;
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? (value as Scalar) : null;
  });
}

const LONG_MAX_TEXT = JSON.stringify(LONG_MAX_MARKER);
const LONG_MIN_TEXT = JSON.stringify(LONG_MIN_MARKER);

/**
 * A request body as JSON text, with the long extremes of search_after written exactly. Only a
 * search_after holds them, so every other body is sent as it stringifies (two scans of the text
 * fewer on every search).
 */
export function serialiseBody(body: SearchBody): string {
  const text = JSON.stringify(body);
  if (body.search_after === undefined) return text;
  return text.replaceAll(LONG_MAX_TEXT, '9223372036854775807').replaceAll(LONG_MIN_TEXT, '-9223372036854775808');
}
