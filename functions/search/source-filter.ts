/**
 * `_source` filtering as OpenSearch does it: a path is kept when it or one of its parent objects
 * matches an include pattern (all paths when there are none) and neither it nor a parent matches
 * an exclude pattern. In patterns `*` matches any characters, dots included. Objects left empty by
 * the filter are dropped; arrays of objects are filtered element by element.
 */

import { BoundedMap } from '../../values/bounded-map';
import { wildcardMatcher, type PatternPart } from './wildcard-patterns';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const patternCache = new BoundedMap<string, PathTest>(1000);

type PathTest = (path: string) => boolean;

/** A `_source` pattern as a path test: only `*` is special (any characters), matched in linear steps (wildcard-patterns.ts). */
function compile(pattern: string): PathTest {
  let test = patternCache.get(pattern);
  if (test === undefined) {
    const parts: PatternPart[] = [...pattern].map((ch) => (ch === '*' ? { kind: 'any-run' } : { kind: 'literal', ch }));
    test = wildcardMatcher(parts);
    patternCache.set(pattern, test);
  }
  return test;
}

/** Whether some pattern could match `path` or a path below it (so the object must be descended into). */
function couldMatchBelow(pattern: string, path: string): boolean {
  const star = pattern.indexOf('*');
  const literal = star === -1 ? pattern : pattern.slice(0, star);
  const prefix = `${path}.`;
  // Below `path` means starting with "path."; a pattern with a star may reach it once its literal head agrees.
  return star === -1 ? pattern.startsWith(prefix) : literal.length <= prefix.length ? prefix.startsWith(literal) : literal.startsWith(prefix);
}

export function filterSource(source: Json, includes: readonly string[], excludes: readonly string[]): Json {
  if (includes.length === 0 && excludes.length === 0) return source;
  const include = includes.map(compile);
  const exclude = excludes.map(compile);
  return filterObject(source, '', includes, include, exclude, includes.length === 0);
}

function filterObject(object: Json, prefix: string, includePatterns: readonly string[], include: PathTest[], exclude: PathTest[], included: boolean): Json {
  const kept: Json = {};
  for (const [key, value] of Object.entries(object)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (exclude.some((test) => test(path))) continue;
    const selfIncluded = included || include.some((test) => test(path));
    const filtered = filterValue(value, path, includePatterns, include, exclude, selfIncluded);
    if (filtered !== undefined) kept[key] = filtered;
  }
  return kept;
}

function filterValue(value: unknown, path: string, includePatterns: readonly string[], include: PathTest[], exclude: PathTest[], included: boolean): unknown {
  if (isObject(value)) {
    if (!included && !includePatterns.some((pattern) => couldMatchBelow(pattern, path))) return undefined;
    const filtered = filterObject(value, path, includePatterns, include, exclude, included);
    // An object that was matched itself stays even when empty; one only passed through is dropped when nothing inside matched.
    return Object.keys(filtered).length > 0 || (included && Object.keys(value).length === 0) ? filtered : undefined;
  }
  if (Array.isArray(value)) {
    if (!value.some(isObject)) return included ? value : undefined;
    const elements = value
      .map((element) => (isObject(element) ? filterValue(element, path, includePatterns, include, exclude, included) : included ? element : undefined))
      .filter((element) => element !== undefined);
    return elements.length > 0 || included ? elements : undefined;
  }
  return included ? value : undefined;
}
