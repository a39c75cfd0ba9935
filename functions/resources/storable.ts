import { ValidationError, type FieldIssue } from '../shared/errors';

/**
 * DynamoDB (through lib-dynamodb) cannot store every JSON document: numbers beyond ±(2^53 − 1) are
 * refused by the marshaller, non-zero numbers nearer to 0 than 1e-130 by DynamoDB, maps and lists
 * nest at most 32 deep, map keys cannot be empty, and an item holds at most 400 KB. Free-form members (colors, design, chunks,
 * policy.resource…) can carry any of these, so documents are checked before writing: a 400 naming
 * the member instead of a 500 from the table.
 */
export const MAX_STORED_DOCUMENT_BYTES = 350_000;
const MAX_NESTING = 30;
const SMALLEST_STORABLE = 1e-130;
const MAX_LISTED = 20;

export function assertStorable(document: Record<string, unknown>): void {
  const issues: FieldIssue[] = [];
  // DynamoDB charges per list/map element and container beyond the JSON text: added to the estimate.
  let overhead = 0;
  const visit = (value: unknown, path: string, depth: number) => {
    if (issues.length >= MAX_LISTED) return;
    if (typeof value === 'number') {
      if (Math.abs(value) > Number.MAX_SAFE_INTEGER) issues.push({ field: path, reason: `number beyond ±${Number.MAX_SAFE_INTEGER} cannot be stored exactly` });
      else if (value !== 0 && Math.abs(value) < SMALLEST_STORABLE) issues.push({ field: path, reason: 'number too close to 0 to store (|x| < 1e-130)' });
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    overhead += 3 + Object.keys(value).length;
    if (depth > MAX_NESTING) {
      issues.push({ field: path, reason: `nested more than ${MAX_NESTING} levels deep` });
      return;
    }
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, `${path}[${i}]`, depth + 1));
    else {
      for (const [key, item] of Object.entries(value)) {
        if (key === '') issues.push({ field: path === '' ? 'body' : path, reason: 'has a member with an empty name, which cannot be stored' });
        else visit(item, path === '' ? key : `${path}.${key}`, depth + 1);
      }
    }
  };
  visit(document, '', 0);
  if (issues.length === 0 && Buffer.byteLength(JSON.stringify(document), 'utf8') + overhead > MAX_STORED_DOCUMENT_BYTES) {
    issues.push({ field: 'body', reason: `the stored document would exceed ${MAX_STORED_DOCUMENT_BYTES} bytes` });
  }
  if (issues.length > 0) throw new ValidationError(`Cannot store the document: ${issues[0]!.field}: ${issues[0]!.reason}`, issues);
}

/** The document, after checking it can be stored. */
export function storable<T extends Record<string, unknown>>(document: T): T {
  assertStorable(document);
  return document;
}
