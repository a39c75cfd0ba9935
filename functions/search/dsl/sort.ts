import * as z from 'zod';
import { resolveField, sortTypeOf, type SortType } from '../fields';
import type { IndexKind } from '../port';
import { UNMAPPED_TYPES, type SortEntry, type SourceFilter, type UnmappedType } from '../../../schemas/search-tree';
import { FieldName, INVALID, Order, type Path, ScalarValue, isPlainObject, issue, parseAt } from './parse-support';

/** Sort entries and _source filters. */

// ---------------------------------------------------------------------------------------------
// Sort, _source.

/**
 * How each unmapped_type sorts. It must be how the field sorts anyway (fields.ts decides that for both
 * backends): OpenSearch would otherwise sort indices without the field one way and the others another,
 * and page through them with search_after values of the wrong type. text and ip sort in no way we serve.
 */
export const UNMAPPED_SORT_TYPE: Partial<Record<UnmappedType, SortType>> = {
  keyword: 'keyword',
  long: 'number',
  integer: 'number',
  short: 'number',
  byte: 'number',
  double: 'number',
  float: 'number',
  half_float: 'number',
  scaled_float: 'number',
  unsigned_long: 'number',
  date: 'date',
  date_nanos: 'date',
  boolean: 'boolean',
};
export const SortParams = z.strictObject({
  order: Order.optional(),
  missing: ScalarValue.optional(),
  unmapped_type: z.enum(UNMAPPED_TYPES, { error: `unmapped_type must be one of ${UNMAPPED_TYPES.join(', ')}` }).optional(),
});

/** A sort given as a bare order (`{"time": "desc"}`), checked as its params would be. */
const OrderOnly = z.object({ order: Order });

export function sortEntry(kind: IndexKind) {
  return z.unknown().transform((item, ctx): SortEntry => {
    const entry = (field: string, params: z.infer<typeof SortParams>, path: Path): SortEntry | typeof z.NEVER => {
      if (field === '_doc') {
        issue(ctx, path, 'sorting by _doc (index order) is not supported; sort by a field or _id');
        return z.NEVER;
      }
      if (field !== '_score') {
        if (parseAt(FieldName, field, ctx, path) === INVALID) return z.NEVER;
        const ref = resolveField(kind, field);
        if (ref.type === 'text') {
          issue(ctx, path, `${field} is a text field and cannot be sorted on; use ${field}.raw`);
          return z.NEVER;
        }
        if (params.unmapped_type !== undefined && UNMAPPED_SORT_TYPE[params.unmapped_type] !== sortTypeOf(ref)) {
          const fitting = UNMAPPED_TYPES.filter((type) => UNMAPPED_SORT_TYPE[type] === sortTypeOf(ref));
          issue(ctx, [...path, 'unmapped_type'], `${field} sorts as ${sortTypeOf(ref)}: unmapped_type must be one of ${fitting.join(', ')}`);
          return z.NEVER;
        }
      }
      return {
        field,
        order: params.order ?? (field === '_score' ? 'desc' : 'asc'),
        missing: params.missing ?? '_last',
        ...(params.unmapped_type === undefined ? {} : { unmapped_type: params.unmapped_type }),
      };
    };
    if (typeof item === 'string') return entry(item, {}, []);
    if (!isPlainObject(item)) {
      issue(ctx, [], 'a sort entry is a field name or {"field": "asc"|"desc"|{"order": ...}}');
      return z.NEVER;
    }
    const keys = Object.keys(item);
    if (keys.length !== 1) {
      issue(ctx, keys.length === 0 ? [] : [keys[1] as string], 'a sort entry names exactly one field');
      return z.NEVER;
    }
    const field = keys[0] as string;
    if (/(^|[_.])script/i.test(field)) {
      issue(ctx, [field], 'scripts are not supported');
      return z.NEVER;
    }
    if (field.startsWith('_geo')) {
      issue(ctx, [field], `${field} sorting is not supported`);
      return z.NEVER;
    }
    const spec = item[field];
    const params = typeof spec === 'string' ? parseAt(OrderOnly, { order: spec }, ctx, [field]) : parseAt(SortParams, spec, ctx, [field]);
    if (params === INVALID) return z.NEVER;
    return entry(field, params, [field]);
  });
}

export const sortList = (kind: IndexKind) => z.preprocess((value) => (Array.isArray(value) ? value : [value]), z.array(sortEntry(kind)));

export const Patterns = z.preprocess(
  (value) => (typeof value === 'string' ? [value] : value),
  z.array(z.string().min(1, { error: 'a pattern cannot be empty' }), { error: 'a pattern or an array of patterns' }),
);
export const SourceSpec: z.ZodType<SourceFilter> = z.unknown().transform((value, ctx): SourceFilter => {
  if (value === false) return false;
  if (value === true) return { includes: [], excludes: [] };
  if (typeof value === 'string' || Array.isArray(value)) {
    const includes = parseAt(Patterns, value, ctx, []);
    return includes === INVALID ? z.NEVER : { includes, excludes: [] };
  }
  const parsed = parseAt(
    z.strictObject({ includes: Patterns.optional(), include: Patterns.optional(), excludes: Patterns.optional(), exclude: Patterns.optional() }),
    value,
    ctx,
    [],
  );
  if (parsed === INVALID) return z.NEVER;
  return { includes: parsed.includes ?? parsed.include ?? [], excludes: parsed.excludes ?? parsed.exclude ?? [] };
});
