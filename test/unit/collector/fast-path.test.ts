import type * as z from 'zod';
import { fastActionEvent, fastApiCallEvent } from '../../../functions/ingest/collector/fast-path';
import { REQUIRED_WHEN_MISSING } from '../../../functions/shared/invalid-input';
import { ActionEvent, ApiCallEvent } from '../../../schemas/collector';
import { receivedBefore, docsExampleEvent, nodeSdkEvent, sdkAction } from './fixtures';

/**
 * The fast path must never accept what the schema refuses, and what it accepts must come out as the
 * schema would give it. Checked on records derived from valid ones by random (seeded) changes.
 */

const CANDIDATE_VALUES: readonly unknown[] = [
  undefined,
  null,
  '',
  'x',
  'Incoming',
  'internal',
  'json',
  'base64',
  'aGVsbG8=',
  'aGVsbG8',
  '0f5d1a9e-7c1b-4a8e-9d7e-3b8e5f2a1c44',
  '0f5d1a9e-7c1b-4a8e-9d7e-3b8e5f2a1c4',
  '2024-05-01T11:59:00.000Z',
  '2024-05-01T11:59:00Z',
  '2024-02-30T11:59:00.000Z',
  '2024-05-01 11:59:00',
  '2024-05-01T13:59:00.123456+02:00',
  '2024-05-01',
  0,
  1,
  3,
  99,
  100,
  599,
  600,
  1.5,
  -1,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  [],
  ['a', 'b'],
  [1, null, 'c'],
  [['nested']],
  false,
  {},
  { a: 'b' },
  { a: 1 },
];

const EVENT_PATHS = [
  'request',
  'request.time',
  'request.uri',
  'request.verb',
  'request.api_version',
  'request.ip_address',
  'request.headers',
  'request.headers.accept',
  'request.headers.content-length',
  'request.body',
  'request.transfer_encoding',
  'response',
  'response.time',
  'response.status',
  'response.ip_address',
  'response.headers',
  'response.headers.vary',
  'response.headers.set-cookie',
  'response.body',
  'response.transfer_encoding',
  'span',
  'span.id',
  'span.parent_id',
  'span.links',
  'span.status',
  'action_name',
  'trace_id',
  'transaction_id',
  'session_token',
  'user_id',
  'company_id',
  'subscription_id',
  'direction',
  'weight',
  'metadata',
  'custom_field',
];

const ACTION_PATHS = [
  'action_name',
  'session_token',
  'user_id',
  'company_id',
  'transaction_id',
  'metadata',
  'request',
  'request.time',
  'request.uri',
  'request.ip_address',
  'request.user_agent_string',
  'custom_field',
];

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(next: () => number, values: readonly T[]): T {
  return values[Math.floor(next() * values.length)]!;
}

function setPath(record: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let target: unknown = record;
  for (const key of keys.slice(0, -1)) {
    if (typeof target !== 'object' || target === null) return;
    target = (target as Record<string, unknown>)[key];
  }
  if (typeof target !== 'object' || target === null || Array.isArray(target)) return;
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete (target as Record<string, unknown>)[last];
  else (target as Record<string, unknown>)[last] = structuredClone(value);
}

function compare<T>(
  name: string,
  seeds: ReadonlyArray<Record<string, unknown>>,
  paths: readonly string[],
  fast: (record: unknown) => T | undefined,
  schema: z.ZodType<T>,
): void {
  describe(name, () => {
    it('accepts the common SDK shapes it exists for', () => {
      expect(seeds.some((seed) => fast(structuredClone(seed)) !== undefined)).toBe(true);
    });

    it('agrees with the schema on 5,000 generated records', () => {
      const next = random(20240501);
      let acceptedFast = 0;
      let refusedFast = 0;
      for (let round = 0; round < 5000; round++) {
        const record = structuredClone(pick(next, seeds));
        const changes = 1 + Math.floor(next() * 3);
        for (let i = 0; i < changes; i++) setPath(record, pick(next, paths), pick(next, CANDIDATE_VALUES));
        const untouched = structuredClone(record);
        const forSchema = structuredClone(record);

        const accepted = fast(record);
        if (accepted === undefined) {
          refusedFast += 1;
          expect(record).toEqual(untouched);
          continue;
        }
        acceptedFast += 1;
        const parsed = schema.safeParse(forSchema, REQUIRED_WHEN_MISSING);
        if (!parsed.success) throw new Error(`fast path accepted what the schema refuses: ${JSON.stringify(untouched)}\n${parsed.error.message}`);
        expect(accepted).toEqual(parsed.data);
      }
      // Both branches must have been exercised for the comparison to mean something.
      expect(acceptedFast).toBeGreaterThan(200);
      expect(refusedFast).toBeGreaterThan(200);
    });
  });
}

function stringHeaderEvent(): Record<string, unknown> {
  const event = nodeSdkEvent({ transaction_id: '0f5d1a9e-7c1b-4a8e-9d7e-3b8e5f2a1c44' });
  (event['response'] as Record<string, unknown>)['headers'] = { 'content-type': 'application/json', vary: 'Accept-Encoding' };
  return event;
}

function base64Event(): Record<string, unknown> {
  const event = stringHeaderEvent();
  Object.assign(event['request'] as object, { transfer_encoding: 'base64', body: 'aGVsbG8gd29ybGQ=' });
  return event;
}

function tracedEvent(): Record<string, unknown> {
  return {
    ...stringHeaderEvent(),
    span: { id: 'b7ad6b7169203331', parent_id: '0af7651916cd43dd', links: [{ trace_id: 't' }], status: 1 },
    trace_id: '0af7651916cd43dd8448eb211c80319c',
  };
}

function actionWithTime(): Record<string, unknown> {
  const action = sdkAction();
  (action['request'] as Record<string, unknown>)['time'] = receivedBefore(1000);
  return action;
}

compare(
  'fastApiCallEvent',
  [stringHeaderEvent(), base64Event(), tracedEvent(), nodeSdkEvent(), docsExampleEvent()],
  EVENT_PATHS,
  fastApiCallEvent,
  ApiCallEvent,
);
compare('fastActionEvent', [sdkAction(), actionWithTime()], ACTION_PATHS, fastActionEvent, ActionEvent);

describe('fast path scope', () => {
  it('takes the SDK shapes: numeric and array headers, dates without offset, transfer_encoding ""', () => {
    expect(fastApiCallEvent(nodeSdkEvent())).toMatchObject({ response: { headers: { 'content-length': '27' } } });
    expect(fastApiCallEvent(docsExampleEvent())).toMatchObject({ request: { time: '2024-05-01T11:59:58.914Z', transfer_encoding: 'json' } });
  });

  it('leaves invalid records to the schema, untouched', () => {
    const invalid = { ...stringHeaderEvent(), span: { id: 'a', status: 'ok' } };
    const copy = structuredClone(invalid);
    expect(fastApiCallEvent(invalid)).toBeUndefined();
    expect(invalid).toEqual(copy);
  });

  it('applies the defaults in place', () => {
    const event = stringHeaderEvent();
    delete event['weight'];
    delete (event['request'] as Record<string, unknown>)['transfer_encoding'];
    const accepted = fastApiCallEvent(event);
    expect(accepted).toBe(event);
    expect(accepted).toMatchObject({ weight: 1, request: { transfer_encoding: 'json' }, response: { transfer_encoding: 'json' } });
  });
});
