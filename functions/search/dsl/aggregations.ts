import * as z from 'zod';
import type { IndexKind } from '../port';
import type { AggregationNode } from '../../../schemas/search-tree';
import { aggregationSchemas } from './aggregation-kinds';
import { BUCKET_TYPES, DEFAULT_ORDERS, type OrderRequest, bucketOrder, refusedAggregation } from './aggregation-rules';
import { MAX_AGGREGATION_DEPTH } from './limits';
import { type Ctx, INVALID, type ParseOptions, type Parsed, type Path, isPlainObject, issue, memoized, parseAt } from './parse-support';

/** Aggregation maps: names, nesting depth, one type per aggregation and its sub-aggregations. */

export const AGGREGATION_NAME = /^[^[\]>]+$/;

/** The aggregations of one level; `depth` is 1 for the request's own. */
export function aggregationMap(kind: IndexKind, options: Required<ParseOptions>, depth: number): z.ZodType<Record<string, AggregationNode>> {
  return memoized(`aggregation-map|${kind}|${options.timeZone}|${depth}`, () => aggregationLevel(kind, options, depth));
}

export function aggregationLevel(kind: IndexKind, options: Required<ParseOptions>, depth: number): z.ZodType<Record<string, AggregationNode>> {
  return z.unknown().transform((body, ctx): Record<string, AggregationNode> => {
    if (!isPlainObject(body)) {
      issue(ctx, [], 'aggregations are an object of named aggregations');
      return z.NEVER;
    }
    if (depth > MAX_AGGREGATION_DEPTH) {
      for (const name of Object.keys(body)) issue(ctx, [name], `aggregations may nest at most ${MAX_AGGREGATION_DEPTH} levels deep`);
      return z.NEVER;
    }
    const result: Record<string, AggregationNode> = {};
    let valid = true;
    for (const [name, spec] of Object.entries(body)) {
      if (!AGGREGATION_NAME.test(name)) {
        issue(ctx, [name], 'aggregation names cannot be empty or contain [, ] or >');
        valid = false;
        continue;
      }
      const node = aggregation(kind, options, depth, spec, ctx, [name]);
      if (node === INVALID) valid = false;
      else result[name] = node;
    }
    return valid ? result : z.NEVER;
  });
}

export function aggregation(kind: IndexKind, options: Required<ParseOptions>, depth: number, spec: unknown, ctx: Ctx, path: Path): Parsed<AggregationNode> {
  if (!isPlainObject(spec)) {
    issue(ctx, path, 'an aggregation is an object with one aggregation type');
    return INVALID;
  }
  const subKeys = ['aggs', 'aggregations'].filter((key) => key in spec);
  if (subKeys.length > 1) {
    issue(ctx, [...path, 'aggregations'], 'give aggs or aggregations, not both');
    return INVALID;
  }
  const subKey = subKeys[0];
  const types = Object.keys(spec).filter((key) => key !== 'aggs' && key !== 'aggregations');
  if (types.length !== 1) {
    issue(
      ctx,
      types.length === 0 ? path : [...path, types[1] as string],
      types.length === 0 ? 'an aggregation names its type' : 'an aggregation has exactly one type',
    );
    return INVALID;
  }
  const type = types[0] as string;
  const schemas = memoized(`aggregations|${kind}|${options.timeZone}`, () => aggregationSchemas(kind, options));
  const schema = Object.hasOwn(schemas, type) ? schemas[type] : undefined;
  if (schema === undefined) {
    issue(ctx, [...path, type], refusedAggregation(type));
    return INVALID;
  }
  let subAggs: Record<string, AggregationNode> = {};
  if (subKey !== undefined) {
    if (!BUCKET_TYPES.has(type)) {
      issue(ctx, [...path, subKey], `a ${type} aggregation cannot have sub-aggregations`);
      return INVALID;
    }
    const parsed = parseAt(aggregationMap(kind, options, depth + 1), spec[subKey], ctx, [...path, subKey]);
    if (parsed === INVALID) return INVALID;
    subAggs = parsed;
  }
  const body = parseAt(schema, spec[type], ctx, [...path, type]);
  if (body === INVALID) return INVALID;
  const fallback = DEFAULT_ORDERS[type];
  if (fallback !== undefined) {
    const order = bucketOrder(ctx, [...path, type], body.order as OrderRequest | undefined, fallback, subAggs);
    if (order === INVALID) return INVALID;
    return { ...body, order, aggs: subAggs } as AggregationNode;
  }
  return { ...body, aggs: subAggs } as AggregationNode;
}
