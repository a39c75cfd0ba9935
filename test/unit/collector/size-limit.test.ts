import { normaliseItems } from '../../../functions/ingest/collector/normalise';
import { MAX_ITEM_BYTES, TRUNCATED_BODY_CHARS, fitItemSize, jsonBytes, jsonBytesUpperBound } from '../../../functions/ingest/collector/size-limit';
import { PayloadTooLargeError, ValidationError } from '../../../functions/shared/errors';
import { isBase64 } from '../../../schemas/collector';
import type { RecordKind, StreamItem } from '../../../schemas/stream-record';
import { context, nodeSdkEvent, sdkAction, sdkUser } from './fixtures';

type Message = Record<string, unknown>;

function normaliseOne(kind: RecordKind, body: unknown): StreamItem {
  return normaliseItems(kind, body, { batch: false }, context())[0]!;
}

function rejection(kind: RecordKind, body: unknown, batch: boolean): PayloadTooLargeError | ValidationError {
  try {
    normaliseItems(kind, body, { batch }, context());
  } catch (error) {
    if (error instanceof PayloadTooLargeError || error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected the body to be rejected');
}

function eventWithBodies(requestBody: unknown, responseBody: unknown, encoding: 'json' | 'base64' = 'json'): Record<string, unknown> {
  const event = nodeSdkEvent();
  Object.assign(event['request'] as Message, { body: requestBody, transfer_encoding: encoding });
  Object.assign(event['response'] as Message, { body: responseBody, transfer_encoding: encoding });
  return event;
}

/** A JSON body of roughly `bytes` bytes. */
function bigJsonBody(bytes: number): Message {
  return { rows: Array.from({ length: Math.ceil(bytes / 50) }, (_, i) => ({ id: i, text: 'lorem ipsum dolor sit amet' })) };
}

describe('jsonBytesUpperBound', () => {
  it.each<[string, unknown]>([
    ['ascii', { a: 'hello', b: [1, 2.5, -3e-300, true, null], c: { d: {} } }],
    ['multi-byte', { clé: 'naïve café ☕ 𝄞' }],
    ['escapes', { s: '"quoted"\\ \n\t\u0001 \u2028' }],
    ['lone surrogate', { s: '\ud800 x \udc00' }],
    ['undefined members', { a: undefined, b: [undefined, 1] }],
    ['big numbers', [Number.MAX_VALUE, -Number.MIN_VALUE, 123456789012345680000]],
  ])('is never below the exact size (%s)', (_name, value) => {
    expect(jsonBytesUpperBound(value)).toBeGreaterThanOrEqual(jsonBytes(value)!);
  });

  it('stops counting once past the limit', () => {
    const huge = Array.from({ length: 1_000_000 }, () => 'abcdefghij');
    expect(jsonBytesUpperBound(huge, 1000)).toBeLessThan(2000);
  });

  it('gives up on deep nesting instead of recursing', () => {
    let nested: unknown = 1;
    for (let i = 0; i < 100; i++) nested = [nested];
    expect(jsonBytesUpperBound(nested)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('fitItemSize', () => {
  it('leaves an item under the limit alone', () => {
    const item = normaliseOne('event', nodeSdkEvent());
    const before = JSON.stringify(item);
    expect(fitItemSize(item, true)).toBeUndefined();
    expect(JSON.stringify(item)).toBe(before);
  });
});

describe('the 1 MB limit per event', () => {
  it('keeps an oversized event with its large body truncated to 450 KB of base64', () => {
    const responseBody = bigJsonBody(2_000_000);
    const item = normaliseOne('event', eventWithBodies({ small: true }, responseBody));
    const response = item.data['response'] as Message;
    expect(response['transfer_encoding']).toBe('base64');
    expect(response['body_truncated']).toBe(true);
    expect(typeof response['body']).toBe('string');
    expect((response['body'] as string).length).toBe(TRUNCATED_BODY_CHARS);
    expect(isBase64(response['body'] as string)).toBe(true);
    const kept = Buffer.from(response['body'] as string, 'base64').toString('utf8');
    expect(JSON.stringify(responseBody).startsWith(kept.slice(0, -4))).toBe(true);
    expect(item.data['request']).toMatchObject({ body: { small: true }, transfer_encoding: 'json' });
    expect((item.data['request'] as Message)['body_truncated']).toBeUndefined();
    expect(jsonBytes(item)).toBeLessThanOrEqual(MAX_ITEM_BYTES);
  });

  it('truncates both bodies when both are large', () => {
    const item = normaliseOne('event', eventWithBodies(bigJsonBody(800_000), bigJsonBody(900_000)));
    for (const part of ['request', 'response']) {
      expect(item.data[part]).toMatchObject({ transfer_encoding: 'base64', body_truncated: true });
      expect(((item.data[part] as Message)['body'] as string).length).toBe(TRUNCATED_BODY_CHARS);
    }
    expect(jsonBytes(item)).toBeLessThanOrEqual(MAX_ITEM_BYTES);
  });

  it('truncates only the largest body when that is enough', () => {
    const item = normaliseOne('event', eventWithBodies(bigJsonBody(460_000), bigJsonBody(700_000)));
    expect(item.data['response']).toMatchObject({ transfer_encoding: 'base64', body_truncated: true });
    expect(item.data['request']).toMatchObject({ transfer_encoding: 'json' });
    expect((item.data['request'] as Message)['body_truncated']).toBeUndefined();
  });

  it('cuts a base64 body at 450,000 characters, keeping it valid base64', () => {
    const raw = Buffer.alloc(1_200_000, 7);
    const encoded = raw.toString('base64');
    const item = normaliseOne('event', eventWithBodies('aGk=', encoded, 'base64'));
    const response = item.data['response'] as Message;
    expect(response['body']).toBe(encoded.slice(0, TRUNCATED_BODY_CHARS));
    expect(isBase64(response['body'] as string)).toBe(true);
    expect(response['body_truncated']).toBe(true);
    expect((item.data['request'] as Message)['body']).toBe('aGk=');
  });

  it('measures bytes, not characters: multi-byte text counts as what it weighs in UTF-8', () => {
    const body = { text: '€'.repeat(400_000) };
    expect(JSON.stringify(body).length).toBeLessThan(MAX_ITEM_BYTES);
    const item = normaliseOne('event', eventWithBodies(null, body));
    expect(item.data['response']).toMatchObject({ body_truncated: true });
  });

  it('refuses with 413 an event still over 1 MB without its bodies, naming index and field', () => {
    const big = nodeSdkEvent();
    (big['request'] as Message)['headers'] = { cookie: 'x'.repeat(1_100_000) };
    const error = rejection('event', [nodeSdkEvent(), big], true);
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error.status).toBe(413);
    expect(error.message).toBe('1 of 2 items are larger than 1 MB even after truncation; nothing was accepted');
    expect(error.details).toEqual([{ index: 1, field: 'request.headers', reason: expect.stringContaining('over the 1000000-byte limit') }]);
  });

  it('does not leave bodies truncated when truncation cannot make the event fit', () => {
    const event = eventWithBodies(bigJsonBody(600_000), null);
    event['metadata'] = { blob: 'y'.repeat(900_000) };
    const error = rejection('event', event, false);
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error.details).toEqual([{ field: 'metadata', reason: expect.stringContaining('even with request and response bodies truncated') }]);
  });

  it('refuses oversized actions and profiles, which have no bodies to cut', () => {
    const action = sdkAction({ metadata: { blob: 'z'.repeat(1_000_001) } });
    expect(rejection('action', action, false).details).toEqual([{ field: 'metadata', reason: expect.any(String) }]);
    const user = sdkUser({ metadata: { notes: 'n'.repeat(1_000_001) } });
    expect(rejection('user', [user], true)).toBeInstanceOf(PayloadTooLargeError);
  });

  it('refuses a body nested too deeply to be stored with a 400', () => {
    let nested: unknown = [];
    for (let i = 0; i < 200_000; i++) nested = [nested];
    const error = rejection('event', eventWithBodies(nested, null), false);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.details).toEqual([{ field: 'request.body', reason: 'is nested too deeply to be stored' }]);
  });
});

describe('what the search index can map', () => {
  const { indexShapeProblem, MAX_FIELDS_PER_ITEM, MAX_OBJECT_DEPTH } = jest.requireActual(
    '../../../functions/ingest/collector/index-shape',
  ) as typeof import('../../../functions/ingest/collector/index-shape');
  const nestedObject = (levels: number) => {
    let value: Record<string, unknown> = { leaf: 1 };
    for (let i = 1; i < levels; i++) value = { n: value };
    return value;
  };

  it('accepts objects nested 20 deep and refuses 21, naming the field', () => {
    // metadata is the item's first level, so its value may nest 19 more.
    expect(indexShapeProblem({ metadata: nestedObject(MAX_OBJECT_DEPTH - 1) })).toBeUndefined();
    const problem = indexShapeProblem({ metadata: nestedObject(MAX_OBJECT_DEPTH) });
    expect(problem).toMatchObject({ status: 400, field: `metadata${'.n'.repeat(MAX_OBJECT_DEPTH - 1)}`, reason: expect.stringContaining('20 objects deep') });
  });

  it('counts distinct fields outside bodies, arrays of objects sharing their paths', () => {
    const wide = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(indexShapeProblem({ metadata: wide(MAX_FIELDS_PER_ITEM - 1) })).toBeUndefined();
    expect(indexShapeProblem({ metadata: wide(MAX_FIELDS_PER_ITEM) })).toMatchObject({
      status: 400,
      reason: expect.stringContaining('at most 1000 distinct fields'),
    });
    expect(indexShapeProblem({ list: Array.from({ length: 5000 }, () => ({ a: 1, b: 2 })) })).toBeUndefined();
    expect(indexShapeProblem({ request: { body: wide(5000) }, response: { body: wide(5000) } })).toBeUndefined();
  });
});

describe('what the search index can map: only request and response hold uncounted bodies', () => {
  const { indexShapeProblem } = jest.requireActual(
    '../../../functions/ingest/collector/index-shape',
  ) as typeof import('../../../functions/ingest/collector/index-shape');
  it('counts a member named body anywhere else', () => {
    const wide = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, i]));
    expect(indexShapeProblem({ metadata: { body: wide } })).toMatchObject({ status: 400, field: expect.stringMatching(/^metadata\.body\.k/) });
    expect(indexShapeProblem({ request: { body: wide } })).toBeUndefined();
  });
});
