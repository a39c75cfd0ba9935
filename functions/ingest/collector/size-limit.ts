import type { StreamItem } from '../../../schemas/stream-record';

/**
 * The 1 MB per-event limit (spec, Limits). Sizes are bytes of the stream item serialised as JSON:
 * what travels on the stream. "1 MB" and "450 KB" are decimal (1,000,000 and 450,000 bytes), like
 * the 50 MB batch limit; 1 MB leaves room for the record envelope within Kinesis's 1 MiB record.
 */
export const MAX_ITEM_BYTES = 1_000_000;

/**
 * A body of an oversized API call is cut so its stored base64 text is at most 450,000 characters,
 * i.e. the first 337,500 bytes of the body (450,000 is a multiple of 4, so the cut base64 text
 * stays valid base64). The 450 KB applies to the stored text, not to the bytes before encoding:
 * two bodies of 450 KB each then fit in one 1 MB event.
 */
export const TRUNCATED_BODY_CHARS = 450_000;
const TRUNCATED_BODY_BYTES = (TRUNCATED_BODY_CHARS / 4) * 3;

/** Nesting deeper than this is measured exactly rather than walked (a cheap guard for the walker's recursion). */
const MAX_WALK_DEPTH = 64;
/** No JSON number is longer than this (e.g. -2.2250738585072014e-308). */
const MAX_NUMBER_CHARS = 24;
/** One UTF-16 code unit becomes at most 6 bytes of JSON (`\u001f`, or `\udc00` for a lone surrogate). */
const MAX_BYTES_PER_CHAR = 6;

/**
 * An upper bound of the UTF-8 size of `JSON.stringify(value)`, without building the string.
 * It stops counting once the bound passes `limit`: the caller then measures exactly. Nearly every
 * event is far below the limit even at this pessimistic rate, so most never get serialised here.
 */
export function jsonBytesUpperBound(value: unknown, limit: number = MAX_ITEM_BYTES): number {
  return boundAt(value, limit, 0);
}

function boundAt(value: unknown, limit: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      return value.length * MAX_BYTES_PER_CHAR + 2;
    case 'number':
      return MAX_NUMBER_CHARS;
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null) return 4;
      if (depth >= MAX_WALK_DEPTH) return Number.POSITIVE_INFINITY;
      let bytes = 2;
      if (Array.isArray(value)) {
        for (const element of value) {
          bytes += boundAt(element, limit, depth + 1) + 1;
          if (bytes > limit) return bytes;
        }
        return bytes;
      }
      const record = value as Record<string, unknown>;
      for (const key in record) {
        bytes += key.length * MAX_BYTES_PER_CHAR + 4 + boundAt(record[key], limit, depth + 1);
        if (bytes > limit) return bytes;
      }
      return bytes;
    }
    default:
      // undefined and functions are left out by JSON.stringify.
      return 0;
  }
}

/** Exact UTF-8 size of the JSON text; undefined when it cannot be serialised (nested too deeply). */
export function jsonBytes(value: unknown): number | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** Why an item cannot be stored: too large even after truncation (413), or impossible to serialise (400). */
export interface OversizeProblem {
  status: 413 | 400;
  field: string;
  reason: string;
}

interface BodyPart {
  message: Record<string, unknown>;
  bytes: number;
}

/**
 * Makes the item fit MAX_ITEM_BYTES. API-call bodies larger than 450 KB are truncated, largest
 * first, until it fits: each becomes base64 of its first 337,500 bytes, with
 * `transfer_encoding: "base64"` and `body_truncated: true` on its request/response (stored as text,
 * not JSON, so body-field filters do not match it, as the spec says). A JSON body is cut as its JSON
 * text. Anything else that is too large is a problem for the caller to report; the item is then
 * left as it was.
 */
export function fitItemSize(item: StreamItem, truncateBodies: boolean): OversizeProblem | undefined {
  if (jsonBytesUpperBound(item) <= MAX_ITEM_BYTES) return undefined;
  let size = jsonBytes(item);
  if (size === undefined) return unserialisable(item.data);
  if (size <= MAX_ITEM_BYTES) return undefined;

  const originalSize = size;
  if (truncateBodies) {
    const truncatable = bodyParts(item.data).filter((part) => part.bytes > TRUNCATED_BODY_CHARS + 2);
    truncatable.sort((a, b) => b.bytes - a.bytes);
    const undo: Array<() => void> = [];
    for (const part of truncatable) {
      undo.push(truncateBody(part.message));
      size = jsonBytes(item) ?? Number.POSITIVE_INFINITY;
      if (size <= MAX_ITEM_BYTES) return undefined;
    }
    for (const restore of undo.reverse()) restore();
  }
  const largest = largestField(item.data);
  return {
    status: 413,
    field: largest.field,
    reason:
      `the item is ${originalSize} bytes as JSON, over the ${MAX_ITEM_BYTES}-byte limit per item` +
      (truncateBodies ? ' even with request and response bodies truncated to 450 KB' : '') +
      `; ${largest.field} alone is ${largest.bytes} bytes`,
  };
}

function bodyParts(data: Record<string, unknown>): BodyPart[] {
  const parts: BodyPart[] = [];
  for (const field of ['request', 'response'] as const) {
    const message = data[field];
    if (typeof message !== 'object' || message === null) continue;
    const body = (message as Record<string, unknown>)['body'];
    if (body === undefined || body === null) continue;
    parts.push({ message: message as Record<string, unknown>, bytes: jsonBytes(body) ?? Number.POSITIVE_INFINITY });
  }
  return parts;
}

/** Replaces the body by its truncated base64 form; returns how to put the original back. */
function truncateBody(message: Record<string, unknown>): () => void {
  const { body, transfer_encoding: encoding, body_truncated: truncated } = message;
  const base64 =
    encoding === 'base64' && typeof body === 'string'
      ? body.slice(0, TRUNCATED_BODY_CHARS)
      : Buffer.from(JSON.stringify(body), 'utf8').subarray(0, TRUNCATED_BODY_BYTES).toString('base64');
  message['body'] = base64;
  message['transfer_encoding'] = 'base64';
  message['body_truncated'] = true;
  return () => {
    message['body'] = body;
    message['transfer_encoding'] = encoding;
    if (truncated === undefined) delete message['body_truncated'];
    else message['body_truncated'] = truncated;
  };
}

/** The top-level field (one level down for request/response) that takes the most bytes. */
function largestField(data: Record<string, unknown>): { field: string; bytes: number } {
  let best = { field: 'body', bytes: -1 };
  for (const key in data) {
    const value = data[key];
    const nested = (key === 'request' || key === 'response') && typeof value === 'object' && value !== null;
    if (nested) {
      for (const inner in value as Record<string, unknown>) {
        const bytes = jsonBytes((value as Record<string, unknown>)[inner]) ?? Number.POSITIVE_INFINITY;
        if (bytes > best.bytes) best = { field: `${key}.${inner}`, bytes };
      }
    } else {
      const bytes = jsonBytes(value) ?? Number.POSITIVE_INFINITY;
      if (bytes > best.bytes) best = { field: key, bytes };
    }
  }
  return best;
}

function unserialisable(data: Record<string, unknown>): OversizeProblem {
  for (const key in data) {
    const value = data[key];
    if ((key === 'request' || key === 'response') && typeof value === 'object' && value !== null) {
      for (const inner in value as Record<string, unknown>) {
        if (jsonBytes((value as Record<string, unknown>)[inner]) === undefined) return tooDeep(`${key}.${inner}`);
      }
    }
    if (jsonBytes(value) === undefined) return tooDeep(key);
  }
  return tooDeep('body');
}

function tooDeep(field: string): OversizeProblem {
  return { status: 400, field, reason: 'is nested too deeply to be stored' };
}
