import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../../../functions/shared/errors';
import { decodeBody, parseJson, readJsonBody } from '../../../functions/shared/http/body';

describe('decodeBody', () => {
  const json = Buffer.from(JSON.stringify({ hello: 'world' }));

  it.each([
    ['gzip', gzipSync(json)],
    ['x-gzip', gzipSync(json)],
    ['deflate', deflateSync(json)],
    ['br', brotliCompressSync(json)],
    [undefined, json],
    ['identity', json],
    ['GZIP', gzipSync(json)],
  ])('decodes Content-Encoding %s', (encoding, raw) => {
    expect(decodeBody(raw, encoding, 1000).equals(json)).toBe(true);
  });

  it('refuses a compressed body whose expansion exceeds the limit (zip bomb) with 413', () => {
    const bomb = gzipSync(Buffer.alloc(10_000_000, 'a'));
    expect(bomb.length).toBeLessThan(100_000);
    expect(() => decodeBody(bomb, 'gzip', 1_000_000)).toThrow(PayloadTooLargeError);
  });

  it('refuses an uncompressed body over the limit with 413', () => {
    expect(() => decodeBody(Buffer.alloc(2000), undefined, 1000)).toThrow(PayloadTooLargeError);
  });

  it('answers a corrupt gzip stream with 400', () => {
    expect(() => decodeBody(Buffer.from('not gzip at all'), 'gzip', 1000)).toThrow(ValidationError);
  });

  it('answers an unknown encoding with 415 naming the header', () => {
    try {
      decodeBody(json, 'compress', 1000);
      throw new Error('expected 415');
    } catch (error) {
      expect(error).toBeInstanceOf(UnsupportedMediaTypeError);
      expect((error as UnsupportedMediaTypeError).details[0]?.field).toBe('content-encoding');
    }
  });
});

describe('parseJson', () => {
  it('parses JSON', () => expect(parseJson(Buffer.from('[1,2]'))).toEqual([1, 2]));
  it('answers invalid JSON with 400 naming the body', () => {
    expect(() => parseJson(Buffer.from('{"a":'))).toThrow(ValidationError);
  });
  it('answers an empty body with 400', () => {
    expect(() => parseJson(Buffer.alloc(0))).toThrow(/empty/);
  });
});

describe('readJsonBody', () => {
  const headers = {};
  it('parses a text body straight from the event string', () => {
    expect(
      readJsonBody(
        {
          bodyText: '{"a":1}',
          headers,
          get rawBody(): Buffer {
            throw new Error('bytes not needed');
          },
        },
        100,
      ),
    ).toEqual({ a: 1 });
  });

  it('decodes bytes when the body is content-encoded', () => {
    const raw = gzipSync(Buffer.from('[1]'));
    expect(readJsonBody({ bodyText: undefined, rawBody: raw, headers: { 'content-encoding': 'gzip' } }, 100)).toEqual([1]);
  });

  it('measures the text limit in UTF-8 bytes', () => {
    const wide = JSON.stringify('€'.repeat(40)); // 42 characters, 122 bytes
    expect(() => readJsonBody({ bodyText: wide, rawBody: Buffer.from(wide), headers }, 100)).toThrow(PayloadTooLargeError);
    expect(readJsonBody({ bodyText: wide, rawBody: Buffer.from(wide), headers }, 200)).toBe('€'.repeat(40));
  });
});

describe('unpaired surrogates in stored bodies', () => {
  const request = (text: string) => ({ bodyText: text, rawBody: Buffer.from(text), headers: {} });
  const refusedAt = (text: string) => {
    try {
      readJsonBody(request(text), 10_000);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).details.map((d) => d.field);
    }
    return [];
  };

  it('refuses one with 400 naming the member, in values and member names alike', () => {
    expect(refusedAt('{"name":"a\\ud800b"}')).toEqual(['name']);
    expect(refusedAt('{"items":[{"x":"ok"},{"x":"\\udffd"}]}')).toEqual(['items[1].x']);
    expect(refusedAt('{"meta":{"\\udc00":1}}')).toEqual(['meta.\udc00']);
  });

  it('keeps escaped and raw valid Unicode, pairs included', () => {
    expect(readJsonBody(request('{"name":"caf\\u00e9 \\ud83d\\ude00 😀"}'), 10_000)).toEqual({ name: 'café 😀 😀' });
  });

  it('leaves the collector what SDKs send', () => {
    expect(readJsonBody(request('{"body":"cut \\ud83d"}'), 10_000, { storedAsMaps: false })).toEqual({ body: 'cut \ud83d' });
  });
});
