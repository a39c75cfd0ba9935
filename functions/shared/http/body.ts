import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../errors';
import { assertNoReservedMembers, mayHoldReservedMembers, type ReservedMemberRules } from './reserved-members';
import type { HttpRequest } from './types';

/**
 * Decodes a request body: `Content-Encoding` gzip/deflate/br (the SDKs gzip every POST), with the
 * decompressed size capped so a zip bomb cannot exhaust memory, then JSON.
 */
export function decodeBody(raw: Buffer, contentEncoding: string | undefined, maxBytes: number): Buffer {
  const encoding = (contentEncoding ?? 'identity').trim().toLowerCase();
  if (raw.length > maxBytes && (encoding === 'identity' || encoding === '')) {
    throw tooLarge(maxBytes);
  }
  const options = { maxOutputLength: maxBytes };
  try {
    switch (encoding) {
      case '':
      case 'identity':
        return raw;
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(raw, options);
      case 'deflate':
        return inflateSync(raw, options);
      case 'br':
        return brotliDecompressSync(raw, options);
      default:
        throw new UnsupportedMediaTypeError(`Content-Encoding ${encoding} is not supported; use gzip, deflate or br`, [
          { field: 'content-encoding', reason: `unsupported encoding ${encoding}` },
        ]);
    }
  } catch (error) {
    if (error instanceof UnsupportedMediaTypeError) throw error;
    if (error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(maxBytes);
    throw new ValidationError(`The body is not valid ${encoding} data`, [{ field: 'body', reason: `corrupt ${encoding} stream` }]);
  }
}

/**
 * The JSON body of a request: decompressed and size-checked. A plain-text body is parsed straight
 * from the event's string (no bytes round trip: the collector's hot path).
 */
export function readJsonBody(
  request: Pick<HttpRequest, 'rawBody' | 'bodyText' | 'headers'>,
  maxBytes: number,
  reservedMembers: ReservedMemberRules = MANAGEMENT_BODY_RULES,
): unknown {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  let text = request.bodyText;
  if (text !== undefined && (!encoding || encoding === 'identity')) {
    // Characters bound UTF-8 bytes from below, and three times the characters from above.
    if (text.length > maxBytes || (text.length * 3 > maxBytes && Buffer.byteLength(text, 'utf8') > maxBytes)) throw tooLarge(maxBytes);
  } else {
    text = decodeBody(request.rawBody, encoding, maxBytes).toString('utf8');
  }
  const body = parseJsonText(text);
  if (mayHoldReservedMembers(text, reservedMembers)) assertNoReservedMembers(body, reservedMembers);
  return body;
}

/** Management bodies are stored as DynamoDB maps (resources) or are queries: no reserved member anywhere. */
export const MANAGEMENT_BODY_RULES: ReservedMemberRules = { storedAsMaps: true };

export function parseJson(body: Buffer): unknown {
  return parseJsonText(body.toString('utf8'));
}

export function parseJsonText(body: string): unknown {
  if (body.length === 0) throw new ValidationError('The request body is empty; a JSON body is required', [{ field: 'body', reason: 'empty body' }]);
  try {
    return JSON.parse(body);
  } catch (error) {
    throw new ValidationError('The request body is not valid JSON', [{ field: 'body', reason: (error as Error).message }]);
  }
}

function tooLarge(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`The body is larger than ${Math.round(maxBytes / 1_000_000)} MB after decompression; split the batch`, [
    { field: 'body', reason: `exceeds ${maxBytes} bytes` },
  ]);
}
