import * as z from 'zod';
import { resolveDateMath } from '../dates/date-math';
import { fieldNameProblem, isDateName } from '../fields';
import { ValidationError } from '../../shared/errors';
import type { Scalar } from '../../../schemas/search-tree';
import { BoundedMap } from '../../../values/bounded-map';

/** What every part of the search DSL parser shares: issues with paths, leaf schemas, single-field query forms. */

export type Ctx = z.core.$RefinementCtx;
export type Path = (string | number)[];

export interface ParseOptions {
  /** The request's time zone: the default of date_histogram's `time_zone`. Default UTC. */
  readonly timeZone?: string;
}

// ---------------------------------------------------------------------------------------------
// Reasons for refused members.

export const NOT_SUPPORTED = new Set([
  'profile',
  'runtime_mappings',
  'suggest',
  'highlight',
  'rescore',
  'collapse',
  'pit',
  'stored_fields',
  'docvalue_fields',
  'indices_boost',
  'explain',
  'version',
  'seq_no_primary_term',
  'min_score',
  'terminate_after',
  'stats',
  'ext',
  'slice',
  'fields',
  'search_type',
  'scroll',
  'timeout',
  'meta',
]);

/** Why a member the schema does not know is refused. */
export function unknownMemberReason(key: string): string {
  if (/(^|[_.])script/i.test(key)) return 'scripts are not supported';
  if (key === 'index' || key === '_index' || key === 'indices') return 'index names cannot be given: the index follows from the endpoint';
  if (key === '_all') return '_all is not supported';
  if (NOT_SUPPORTED.has(key)) return `${key} is not supported`;
  return 'unknown parameter';
}

export function issue(ctx: Ctx, path: Path, message: string): void {
  ctx.addIssue({ code: 'custom', message, path, input: undefined });
}

export const INVALID = Symbol('invalid');
export type Parsed<T> = T | typeof INVALID;

/** Parses a nested value with its own schema, reporting its issues under `path`. */
export function parseAt<T>(schema: z.ZodType<T>, value: unknown, ctx: Ctx, path: Path): Parsed<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const found of result.error.issues) {
    if (found.code === 'unrecognized_keys') {
      for (const key of found.keys) issue(ctx, [...path, ...(found.path as Path), key], unknownMemberReason(key));
    } else {
      issue(ctx, [...path, ...(found.path as Path)], found.message);
    }
  }
  return INVALID;
}

/** Runs a check of the dates module (which throws ValidationError) and reports its reason under `path`. */
export function checkAt<T>(ctx: Ctx, path: Path, check: () => T): Parsed<T> {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    issue(ctx, path, error.details[0]?.reason ?? error.message);
    return INVALID;
  }
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// ---------------------------------------------------------------------------------------------
// Leaves.

export const ScalarValue: z.ZodType<Scalar> = z.union([z.string(), z.number().finite(), z.boolean()], { error: 'must be a string, number or boolean' });
/** OpenSearch accepts numbers as numeric strings too. */
export const IntLike = (min: number, max: number, what: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value),
    z
      .number({ error: `${what} must be an integer` })
      .int({ error: `${what} must be an integer` })
      .min(min, { error: `${what} must be at least ${min}` })
      .max(max, { error: `${what} must be at most ${max}` }),
  );
/** Relevance is not computed, so boosts change nothing; accepted for compatibility. */
export const Boost = z.number({ error: 'boost must be a number' }).optional();
export const QueryName = z.string({ error: '_name must be a string' }).optional();
/**
 * `boost` and `_name` beside a query's field. Schemas are built once, at module load: zod compiles
 * an object schema on its first parse, so one built per call compiled again on every request.
 */
export const BoostAndName = z.object({ boost: Boost, _name: QueryName });
export const FieldName = z.string({ error: 'a field name must be a string' }).superRefine((name, ctx) => {
  const problem = fieldNameProblem(name);
  if (problem !== undefined) issue(ctx, [], problem);
});
export const Order = z.preprocess(
  (value) => (typeof value === 'string' ? value.toLowerCase() : value),
  z.enum(['asc', 'desc'], { error: 'order must be "asc" or "desc"' }),
);
export const Operator = z.preprocess(
  (value) => (typeof value === 'string' ? value.toLowerCase() : value),
  z.enum(['or', 'and'], { error: 'operator must be "or" or "and"' }),
);

// ---------------------------------------------------------------------------------------------
// Queries.

/** Field names whose strings are dates: their range/term values must parse as dates or date math. */
export function checkDateValue(ctx: Ctx, path: Path, field: string, value: Scalar, roundUp: boolean, format?: string, timeZone = 'UTC'): void {
  if (field.endsWith('.raw') || !isDateName(field) || typeof value === 'boolean') return;
  checkAt(ctx, path, () => resolveDateMath(value, new Date(0), timeZone, roundUp, { format }));
}

/** The keys of a single-field body that name fields (not boost/_name); a script parameter is refused. */
export function fieldKeys(body: Record<string, unknown>, ctx: Ctx): Parsed<string[]> {
  const script = Object.keys(body).find((key) => /(^|[_.])script/i.test(key) && !key.includes('.'));
  if (script !== undefined) {
    issue(ctx, [script], 'scripts are not supported');
    return INVALID;
  }
  return Object.keys(body).filter((key) => key !== 'boost' && key !== '_name');
}

/**
 * The single-field form `{kind: {field: value}}` or `{kind: {field: {...params}}}`; `boost` and
 * `_name` may sit beside the field. Reports a problem when there is not exactly one field.
 */
export function singleField<T>(kind: string, parse: (field: string, spec: unknown, ctx: Ctx) => Parsed<T>) {
  return z.unknown().transform((body, ctx): T => {
    if (!isPlainObject(body)) {
      issue(ctx, [], `${kind} takes an object: {"${kind}": {"field": ...}}`);
      return z.NEVER;
    }
    const fields = fieldKeys(body, ctx);
    if (fields === INVALID || parseAt(BoostAndName, body, ctx, []) === INVALID) return z.NEVER;
    if (fields.length !== 1) {
      issue(ctx, fields.length === 0 ? [] : [fields[1] as string], `${kind} takes exactly one field`);
      return z.NEVER;
    }
    const field = fields[0] as string;
    if (parseAt(FieldName, field, ctx, [field]) === INVALID) return z.NEVER;
    const parsed = parse(field, body[field], ctx);
    return parsed === INVALID ? z.NEVER : parsed;
  });
}

/** A value given directly (`{field: value}`) or as the `valueKey` member of a parameter object. */
export function valueOrParams<P extends Record<string, unknown>>(
  spec: unknown,
  ctx: Ctx,
  path: Path,
  value: z.ZodType,
  params: z.ZodType<P>,
  valueKey: string,
): Parsed<P> {
  if (isPlainObject(spec)) return parseAt(params, spec, ctx, path);
  const direct = parseAt(value, spec, ctx, path);
  return direct === INVALID ? INVALID : ({ [valueKey]: direct } as P);
}

/**
 * Schemas depend only on the index kind and the request's time zone: built once and reused (building
 * them costs more than parsing a body). Time zones are validated, but there are thousands of names and
 * fixed offsets a request may write: the 64 most recently used schemas stay built.
 */
const schemaCache = new BoundedMap<string, unknown>(64);
export function memoized<T>(key: string, build: () => T): T {
  let schema = schemaCache.get(key);
  if (schema === undefined) {
    schema = build();
    schemaCache.set(key, schema);
  }
  return schema as T;
}
