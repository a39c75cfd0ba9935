/**
 * A JSON array of already-serialised elements, as UTF-8 bytes written into one buffer: encoding each
 * element on its own is several times faster than encoding one multi-megabyte joined string
 * (docs/billing.md, Speed), and writing them in place avoids a buffer per element. The billing run
 * writes every report shard, outcome overlay and webhook batch this way.
 */
/** Text written before and after a JSON array in the same buffer (an envelope around it). */
export interface JsonWrap {
  readonly prefix: string;
  readonly suffix: string;
}

/**
 * `elementBytes`: the elements' UTF-8 lengths added up, when the caller has measured them already
 * (measuring is a pass over every character).
 */
export function jsonArrayBytes(elements: readonly string[], wrap?: JsonWrap, elementBytes?: number): Buffer {
  let size = 2 + Math.max(0, elements.length - 1) + (wrap ? Buffer.byteLength(wrap.prefix, 'utf8') + Buffer.byteLength(wrap.suffix, 'utf8') : 0);
  if (elementBytes !== undefined) size += elementBytes;
  else for (const element of elements) size += Buffer.byteLength(element, 'utf8');
  const bytes = Buffer.allocUnsafe(size);
  let at = wrap ? bytes.write(wrap.prefix, 0, 'utf8') : 0;
  bytes[at++] = OPEN_BRACKET;
  elements.forEach((element, i) => {
    if (i > 0) bytes[at++] = COMMA;
    at += bytes.write(element, at, 'utf8');
  });
  bytes[at++] = CLOSE_BRACKET;
  if (wrap) bytes.write(wrap.suffix, at, 'utf8');
  return bytes;
}

const OPEN_BRACKET = 0x5b;
const COMMA = 0x2c;
const CLOSE_BRACKET = 0x5d;
