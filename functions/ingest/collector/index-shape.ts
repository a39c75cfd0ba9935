import type { OversizeProblem } from './size-limit';

/**
 * What the search index can map, checked at the door so nothing acknowledged is refused by it later.
 * OpenSearch maps every object member to a field: it refuses documents nested deeper than its
 * `index.mapping.depth.limit` (20 inner objects) and, per index, more than
 * `index.mapping.total_fields.limit` fields (5,000 here, shared by every app of the index). An item
 * may therefore nest objects at most 20 deep and name at most 1,000 distinct fields outside its
 * request/response bodies (bodies, chosen by the API and not the sender, are not counted).
 */
export const MAX_OBJECT_DEPTH = 20;
export const MAX_FIELDS_PER_ITEM = 1_000;
const BODY_HOLDERS = new Set(['request', 'response']);
/** Arrays in arrays are not objects, but still recursion: past this the size check (which measures nesting exactly) answers. */
const MAX_WALK_NESTING = 64;

export function indexShapeProblem(data: Record<string, unknown>): OversizeProblem | undefined {
  // Nearly every item is far inside both limits: a count without field paths shows it cheaply.
  const shape = { members: 0, tooDeep: false };
  measure(data, 1, true, 0, false, shape);
  return shape.tooDeep || shape.members > MAX_FIELDS_PER_ITEM ? locateProblem(data) : undefined;
}

/** Counts members outside bodies (an upper bound of distinct fields) and notes any object nested too deep. */
function measure(value: unknown, depth: number, counted: boolean, nesting: number, holdsBody: boolean, shape: { members: number; tooDeep: boolean }): void {
  if (shape.tooDeep || typeof value !== 'object' || value === null || nesting > MAX_WALK_NESTING) return;
  if (Array.isArray(value)) {
    for (const element of value) measure(element, depth, counted, nesting + 1, false, shape);
    return;
  }
  if (depth > MAX_OBJECT_DEPTH) {
    shape.tooDeep = true;
    return;
  }
  for (const key in value) {
    const countMember = counted && !(holdsBody && key === 'body');
    if (countMember) shape.members++;
    measure((value as Record<string, unknown>)[key], depth + 1, countMember, nesting + 1, depth === 1 && BODY_HOLDERS.has(key), shape);
  }
}

/** The first field past a limit, with its path: walked only for items that may be past one. */
function locateProblem(data: Record<string, unknown>): OversizeProblem | undefined {
  const fields = new Set<string>();
  let problem: OversizeProblem | undefined;
  const visit = (value: unknown, path: string, depth: number, counted: boolean, nesting = 0): void => {
    if (problem || typeof value !== 'object' || value === null || nesting > MAX_WALK_NESTING) return;
    if (Array.isArray(value)) {
      // Arrays are transparent to the mapping: their objects' members share one field path.
      for (const element of value) visit(element, path, depth, counted, nesting + 1);
      return;
    }
    if (depth > MAX_OBJECT_DEPTH) {
      problem = { status: 400, field: path, reason: `is nested more than ${MAX_OBJECT_DEPTH} objects deep, deeper than the search index maps` };
      return;
    }
    for (const key of Object.keys(value)) {
      const field = path === '' ? key : `${path}.${key}`;
      const countMembers = counted && !(key === 'body' && BODY_HOLDERS.has(path));
      if (countMembers && !fields.has(field)) {
        fields.add(field);
        if (fields.size > MAX_FIELDS_PER_ITEM) {
          problem = {
            status: 400,
            field,
            reason: `is field number ${fields.size} of the item; an item may name at most ${MAX_FIELDS_PER_ITEM} distinct fields outside request and response bodies`,
          };
          return;
        }
      }
      visit((value as Record<string, unknown>)[key], field, depth + 1, countMembers, nesting + 1);
    }
  };
  visit(data, '', 1, true);
  return problem;
}
