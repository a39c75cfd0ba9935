import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { App, AppSettings } from '../../../schemas/app';
import { RuleConfigStore } from '../../../functions/governance/rule-config-store';
import { GovernanceRuleStore } from '../../../functions/governance/rule-store';
import { createCollectorHandler } from '../../../functions/routers/collector-api';
import type { StreamEntry } from '../../../functions/ingest/stream/pack-records';
import { decodeRecord } from '../../../functions/ingest/stream/record-encoding';
import { UploadStore } from '../../../functions/ingest/uploads/upload-store';
import type { HttpEvent } from '../../../functions/shared/http/types';

/**
 * Hostile and malformed bodies against the real collector handler (in-memory stream, no network):
 * every answer is 201 or a 4xx in the error shape — never a 500 — and a refused body publishes nothing.
 */
const now = new Date().toISOString();
const app = App.parse({
  org_id: 'o',
  app_id: 'a',
  name: 'fuzz',
  collector_application_id: 'f'.repeat(64),
  settings: AppSettings.parse({}),
  created_at: now,
  modified_at: now,
});
let published: StreamEntry[] = [];
const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const handler = createCollectorHandler({
  apps: { findByCollectorApplicationId: async (id) => (id === app.collector_application_id ? app : undefined) },
  rules: new GovernanceRuleStore(documents, 'unused', new RuleConfigStore(documents, 'unused')),
  uploads: new UploadStore(new S3Client({ region: 'us-east-1' }), 'unused'),
  publisher: { publish: async (entries) => void published.push(...entries) },
  region: 'test',
});

// A small deterministic PRNG, so a failure is reproducible from its seed.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const nasty = [
  '',
  ' ',
  'null',
  '__proto__',
  'constructor',
  'x'.repeat(257),
  'é'.repeat(129),
  '2026-13-45T25:61:00Z',
  'not-a-date',
  '\u0000',
  '\ud800',
  'é'.repeat(50),
  '9'.repeat(400),
  'x'.repeat(70),
  '=====',
  'AAAA',
];

const PROTOTYPE_KEYS = ['__proto__', '__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'];
/** Members named `__proto__` in a JSON text (a string value is never followed by a colon). */
const protoMembers = (text: string) => text.split('"__proto__":').length - 1;

function randomValue(r: () => number, depth = 0): unknown {
  const pick = Math.floor(r() * (depth > 3 ? 6 : 9));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return [0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 599, 100][Math.floor(r() * 8)];
    case 3:
      return nasty[Math.floor(r() * nasty.length)];
    case 4:
      return new Date(Date.now() - r() * 40 * 86_400_000).toISOString();
    case 5:
      return `str${Math.floor(r() * 1000)}`;
    case 6:
      return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    default: {
      const keys = [
        'request',
        'response',
        'time',
        'uri',
        'verb',
        'headers',
        'body',
        'status',
        'transfer_encoding',
        'transaction_id',
        'user_id',
        'company_id',
        'weight',
        'metadata',
        'action_name',
        'subscription_id',
        'items',
        'status',
        'campaign',
        ...PROTOTYPE_KEYS,
      ];
      const o: Record<string, unknown> = {};
      // defineProperty: a `__proto__` key is then a member, as JSON.parse makes it, not the object's prototype.
      for (let i = Math.floor(r() * 6); i > 0; i--)
        Object.defineProperty(o, keys[Math.floor(r() * keys.length)]!, {
          value: randomValue(r, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return o;
    }
  }
}

function validEvent(i: number): Record<string, any> {
  return {
    request: { time: new Date().toISOString(), uri: `https://api.example.com/x/${i}`, verb: 'GET', headers: { authorization: 'Bearer t' }, body: { a: i } },
    response: { time: new Date().toISOString(), status: 200, headers: {}, body: { ok: true } },
    transaction_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    user_id: `u${i}`,
  };
}

/** A valid event with one field replaced by a random value, or deleted. */
function mutated(r: () => number, i: number): unknown {
  const event = validEvent(i);
  const paths = [
    ['request', 'time'],
    ['request', 'uri'],
    ['request', 'verb'],
    ['request', 'headers'],
    ['request', 'body'],
    ['request', 'transfer_encoding'],
    ['response', 'status'],
    ['response', 'time'],
    ['response'],
    ['request'],
    ['transaction_id'],
    ['weight'],
    ['metadata'],
    ['user_id'],
    ['direction'],
    ['span'],
  ];
  const path = paths[Math.floor(r() * paths.length)]!;
  let target = event;
  for (const key of path.slice(0, -1)) target = target[key];
  if (r() < 0.2) delete target[path[path.length - 1]!];
  else target[path[path.length - 1]!] = randomValue(r);
  return event;
}

function post(path: string, body: string): Promise<{ statusCode?: number; body?: string }> {
  return handler({
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    isBase64Encoded: false,
    body,
    headers: { 'content-type': 'application/json', 'x-service-application-id': app.collector_application_id },
    requestContext: { http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'fuzz' }, timeEpoch: Date.now() },
  } as unknown as HttpEvent);
}

const routes = [
  '/v1/events',
  '/v1/events/batch',
  '/v1/actions',
  '/v1/actions/batch',
  '/v1/users',
  '/v1/users/batch',
  '/v1/companies',
  '/v1/companies/batch',
  '/v1/subscriptions',
  '/v1/subscriptions/batch',
];

describe('collector fuzz', () => {
  const seeds = Array.from({ length: 8 }, (_, i) => i + 1);

  it.each(seeds)('seed %i: random bodies on every ingest route never get a 500', async (seed) => {
    const r = rng(seed);
    for (let n = 0; n < 150; n++) {
      const route = routes[Math.floor(r() * routes.length)]!;
      const value = route.endsWith('/batch') && r() < 0.7 ? Array.from({ length: 1 + Math.floor(r() * 4) }, () => randomValue(r)) : randomValue(r);
      published = [];
      const result = await post(route, JSON.stringify(value) ?? 'null');
      expect([201, 400, 413]).toContain(result.statusCode);
      if (result.statusCode === 201) {
        // Acknowledged means kept whole: every __proto__ member sent is on the stream.
        expect(published.map((e) => protoMembers(decodeRecord(e.data))).reduce((a, b) => a + b, 0)).toBe(protoMembers(JSON.stringify(value) ?? ''));
      } else {
        expect(published).toEqual([]);
        const error = JSON.parse(result.body!).error;
        expect(error.status).toBe(result.statusCode);
        expect(error.details.length).toBeGreaterThan(0);
        for (const d of error.details) expect(typeof d.field === 'string' && typeof d.reason === 'string').toBe(true);
      }
    }
  });

  it.each(seeds)('seed %i: batches with one mutated event are all-or-nothing', async (seed) => {
    const r = rng(seed * 7919);
    for (let n = 0; n < 60; n++) {
      const batch = Array.from({ length: 5 }, (_, i) => validEvent(n * 10 + i));
      const bad = Math.floor(r() * 5);
      batch[bad] = mutated(r, n * 10 + bad) as Record<string, any>;
      published = [];
      const result = await post('/v1/events/batch', JSON.stringify(batch));
      expect([201, 400, 413]).toContain(result.statusCode);
      if (result.statusCode === 201) {
        expect(JSON.parse(result.body!).accepted).toBe(5);
        expect(published.length).toBeGreaterThan(0);
      } else {
        expect(published).toEqual([]);
        expect(JSON.parse(result.body!).error.details.every((d: { index?: number }) => d.index === bad)).toBe(true);
      }
    }
  });
});
