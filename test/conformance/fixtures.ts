import { routeOfUri } from '../../functions/search/index-documents';
import type { CaseDocument } from './types';

/**
 * The data sets the cases search. Each is small enough that every expected answer can be worked
 * out by hand from the tables in the comments.
 */

interface CallSpec {
  readonly id: string;
  readonly time: string;
  readonly verb?: string;
  readonly uri?: string;
  readonly status?: number;
  /** Milliseconds between request and response: becomes `duration_ms`. */
  readonly duration?: number;
  readonly user?: string;
  readonly company?: string;
  readonly weight?: number;
  readonly metadata?: Record<string, unknown>;
  readonly requestHeaders?: Record<string, string>;
  /** The caller's address (`request.ip_address`). */
  readonly ip?: string;
  readonly late?: boolean;
}

/**
 * An API call as the collector normalises it; the index derives duration_ms, event_type and is_late.
 * Its route is the URI's path as an SDK names it (`/v1/orders/42`, not the template `/v1/orders/:id`),
 * so the text cases have ids to search for.
 */
export function apiCall(spec: CallSpec): CaseDocument {
  const responseTime = new Date(Date.parse(spec.time) + (spec.duration ?? 0)).toISOString();
  const uri = spec.uri ?? 'https://api.shop.test/v1/ping';
  const data: Record<string, unknown> = {
    request: {
      time: spec.time,
      uri,
      route: routeOfUri(uri),
      verb: spec.verb ?? 'GET',
      headers: spec.requestHeaders ?? {},
      ...(spec.ip === undefined ? {} : { ip_address: spec.ip }),
    },
    response: { time: responseTime, status: spec.status ?? 200, headers: {} },
  };
  if (spec.user !== undefined) data.user_id = spec.user;
  if (spec.company !== undefined) data.company_id = spec.company;
  if (spec.weight !== undefined) data.weight = spec.weight;
  if (spec.metadata !== undefined) data.metadata = spec.metadata;
  return { id: spec.id, time: spec.time, data, ...(spec.late === undefined ? {} : { late: spec.late }) };
}

/** An event that carries only metadata (and the request time the index needs). */
export const metadataEvent = (id: string, time: string, metadata: Record<string, unknown>): CaseDocument => apiCall({ id, time, metadata });

/**
 * CALLS — eight API calls, newest last (default order is c8 … c1):
 *
 * | id | time (UTC)               | verb   | route           | status | dur | user    | company   | weight | metadata                                   | late |
 * |----|--------------------------|--------|-----------------|--------|-----|---------|-----------|--------|--------------------------------------------|------|
 * | c1 | 2026-03-09T08:00:00.000  | GET    | /v1/orders      | 200    | 120 | u-alice | c-acme    | 1      | plan pro, tags [beta, eu], score 10        |      |
 * | c2 | 2026-03-10T09:30:00.000  | POST   | /v1/orders      | 201    | 250 | u-bob   | c-acme    | 3      | plan free, tags [eu], score 25             |      |
 * | c3 | 2026-03-11T12:00:00.000  | GET    | /v1/orders/42   | 404    | 80  | u-alice | c-acme    | —      | plan pro, score 5                          |      |
 * | c4 | 2026-03-12T15:45:00.000  | DELETE | /v1/orders/42   | 500    | 900 | u-carol | c-globex  | 2      | plan Enterprise, tags [beta]               | yes  |
 * | c5 | 2026-03-13T18:20:00.000  | GET    | /v1/products    | 200    | 60  | u-bob   | c-globex  | 1      | {}                                         |      |
 * | c6 | 2026-03-14T23:59:59.999  | PUT    | /v1/products/7  | 200    | 300 | —       | —         | 5      | plan pro, score 40                         |      |
 * | c7 | 2026-03-15T00:00:00.000  | GET    | /v1/orders      | 429    | 10  | u-dave  | c-initech | 1      | plan free, score 15                        | yes  |
 * | c8 | 2026-03-15T10:00:00.000  | GET    | /v1/products    | 200    | 40  | u-alice | c-acme    | 1      | plan pro, tags [], score null              |      |
 *
 * The route comes from the URI (c1's has a query string). Sums: weight 14 (15 with missing = 1),
 * duration 1760 (min 10, max 900, avg 220).
 */
export const CALLS: readonly CaseDocument[] = [
  apiCall({
    id: 'c1',
    time: '2026-03-09T08:00:00.000Z',
    verb: 'GET',
    uri: 'https://api.shop.test/v1/orders?page=1',
    status: 200,
    duration: 120,
    user: 'u-alice',
    company: 'c-acme',
    weight: 1,
    metadata: { plan: 'pro', tags: ['beta', 'eu'], score: 10 },
  }),
  apiCall({
    id: 'c2',
    time: '2026-03-10T09:30:00.000Z',
    verb: 'POST',
    uri: 'https://api.shop.test/v1/orders',
    status: 201,
    duration: 250,
    user: 'u-bob',
    company: 'c-acme',
    weight: 3,
    metadata: { plan: 'free', tags: ['eu'], score: 25 },
  }),
  apiCall({
    id: 'c3',
    time: '2026-03-11T12:00:00.000Z',
    verb: 'GET',
    uri: 'https://api.shop.test/v1/orders/42',
    status: 404,
    duration: 80,
    user: 'u-alice',
    company: 'c-acme',
    metadata: { plan: 'pro', score: 5 },
  }),
  apiCall({
    id: 'c4',
    time: '2026-03-12T15:45:00.000Z',
    verb: 'DELETE',
    uri: 'https://api.shop.test/v1/orders/42',
    status: 500,
    duration: 900,
    user: 'u-carol',
    company: 'c-globex',
    weight: 2,
    metadata: { plan: 'Enterprise', tags: ['beta'] },
    late: true,
  }),
  apiCall({
    id: 'c5',
    time: '2026-03-13T18:20:00.000Z',
    verb: 'GET',
    uri: 'https://api.shop.test/v1/products',
    status: 200,
    duration: 60,
    user: 'u-bob',
    company: 'c-globex',
    weight: 1,
    metadata: {},
  }),
  apiCall({
    id: 'c6',
    time: '2026-03-14T23:59:59.999Z',
    verb: 'PUT',
    uri: 'https://api.shop.test/v1/products/7',
    status: 200,
    duration: 300,
    weight: 5,
    metadata: { plan: 'pro', score: 40 },
  }),
  apiCall({
    id: 'c7',
    time: '2026-03-15T00:00:00.000Z',
    verb: 'GET',
    uri: 'https://api.shop.test/v1/orders',
    status: 429,
    duration: 10,
    user: 'u-dave',
    company: 'c-initech',
    weight: 1,
    metadata: { plan: 'free', score: 15 },
    late: true,
  }),
  apiCall({
    id: 'c8',
    time: '2026-03-15T10:00:00.000Z',
    verb: 'GET',
    uri: 'https://api.shop.test/v1/products',
    status: 200,
    duration: 40,
    user: 'u-alice',
    company: 'c-acme',
    weight: 1,
    metadata: { plan: 'pro', tags: [], score: null },
  }),
];

/** Epoch millis of the CALLS times, as sort values and date keys carry them. */
export const CALL_MILLIS = {
  c1: 1773043200000,
  c2: 1773135000000,
  c3: 1773230400000,
  c4: 1773330300000,
  c5: 1773426000000,
  c6: 1773532799999,
  c7: 1773532800000,
  c8: 1773568800000,
} as const;

export const CALLS_NEWEST_FIRST = ['c8', 'c7', 'c6', 'c5', 'c4', 'c3', 'c2', 'c1'] as const;

/** Over 1024 characters: kept in `_source` and searchable as text, but not indexed in `.raw`. */
export const LONG_NOTE = Array.from({ length: 220 }, () => 'word').join(' ');

/**
 * TEXTS — free text in `metadata.note` (a text field with `.raw`), one hour apart on 2026-03-01:
 * t1 "Quick brown fox" (content-type application/json), t2 "The lazy dog, quick!" (content-type
 * text/html; charset=UTF-8), t3 "BROWN bear", t4 "fox-trot 2026", t5 no note, t6 "Café Münster",
 * t7 LONG_NOTE. Only words split by spaces and plain punctuation, where the standard analyzer and
 * our approximation of it agree.
 */
export const TEXTS: readonly CaseDocument[] = [
  apiCall({ id: 't1', time: '2026-03-01T01:00:00.000Z', metadata: { note: 'Quick brown fox' }, requestHeaders: { 'content-type': 'application/json' } }),
  apiCall({
    id: 't2',
    time: '2026-03-01T02:00:00.000Z',
    metadata: { note: 'The lazy dog, quick!' },
    requestHeaders: { 'content-type': 'text/html; charset=UTF-8' },
  }),
  apiCall({ id: 't3', time: '2026-03-01T03:00:00.000Z', metadata: { note: 'BROWN bear' } }),
  apiCall({ id: 't4', time: '2026-03-01T04:00:00.000Z', metadata: { note: 'fox-trot 2026' } }),
  apiCall({ id: 't5', time: '2026-03-01T05:00:00.000Z', metadata: { other: 'no note here' } }),
  apiCall({ id: 't6', time: '2026-03-01T06:00:00.000Z', metadata: { note: 'Café Münster' } }),
  apiCall({ id: 't7', time: '2026-03-01T07:00:00.000Z', metadata: { note: LONG_NOTE } }),
];

/**
 * ARRAYS — multi-valued metadata, one hour apart on 2026-03-02 (default order a5 … a1):
 * a1 sizes [1, 2], tags [red, blue], level 9; a2 sizes [3], tags [blue], level 10;
 * a3 sizes [1, 5], tags [green], level 100; a4 sizes [], tags [], level 10; a5 {} (nothing).
 */
export const ARRAYS: readonly CaseDocument[] = [
  metadataEvent('a1', '2026-03-02T01:00:00.000Z', { sizes: [1, 2], tags: ['red', 'blue'], level: 9 }),
  metadataEvent('a2', '2026-03-02T02:00:00.000Z', { sizes: [3], tags: ['blue'], level: 10 }),
  metadataEvent('a3', '2026-03-02T03:00:00.000Z', { sizes: [1, 5], tags: ['green'], level: 100 }),
  metadataEvent('a4', '2026-03-02T04:00:00.000Z', { sizes: [], tags: [], level: 10 }),
  metadataEvent('a5', '2026-03-02T05:00:00.000Z', {}),
];

/**
 * PARIS_AUTUMN — around the end of summer time in Europe/Paris (2026-10-25 03:00 CEST → 02:00 CET,
 * at 01:00 UTC):
 * d1 2026-10-24T21:30Z (24th 23:30 +02), d2 2026-10-24T22:30Z (25th 00:30 +02),
 * d3 2026-10-25T00:30Z (25th 02:30 +02), d4 2026-10-25T01:30Z (25th 02:30 +01),
 * d5 2026-10-25T22:30Z (25th 23:30 +01), d6 2026-10-25T23:30Z (26th 00:30 +01).
 */
export const PARIS_AUTUMN: readonly CaseDocument[] = [
  apiCall({ id: 'd1', time: '2026-10-24T21:30:00.000Z', weight: 1 }),
  apiCall({ id: 'd2', time: '2026-10-24T22:30:00.000Z', weight: 2 }),
  apiCall({ id: 'd3', time: '2026-10-25T00:30:00.000Z', weight: 3 }),
  apiCall({ id: 'd4', time: '2026-10-25T01:30:00.000Z', weight: 4 }),
  apiCall({ id: 'd5', time: '2026-10-25T22:30:00.000Z', weight: 5 }),
  apiCall({ id: 'd6', time: '2026-10-25T23:30:00.000Z', weight: 6 }),
];

/** PARIS_SPRING — around the start of summer time (2026-03-29 02:00 CET → 03:00 CEST, at 01:00 UTC). */
export const PARIS_SPRING: readonly CaseDocument[] = [
  apiCall({ id: 's1', time: '2026-03-29T00:30:00.000Z' }),
  apiCall({ id: 's2', time: '2026-03-29T01:30:00.000Z' }),
];

/** NEW_YORK_MONTHS — one event in February, March and May 2026 (New York moves to -04:00 on 8 March). */
export const NEW_YORK_MONTHS: readonly CaseDocument[] = [
  apiCall({ id: 'm1', time: '2026-02-15T12:00:00.000Z' }),
  apiCall({ id: 'm2', time: '2026-03-20T12:00:00.000Z' }),
  apiCall({ id: 'm3', time: '2026-05-05T12:00:00.000Z' }),
];

/** WEEKS — Sunday 8 March late, Monday 9 March at midnight, Sunday 15 March late (UTC). */
export const WEEKS: readonly CaseDocument[] = [
  apiCall({ id: 'w1', time: '2026-03-08T23:00:00.000Z' }),
  apiCall({ id: 'w2', time: '2026-03-09T00:00:00.000Z' }),
  apiCall({ id: 'w3', time: '2026-03-15T23:59:59.000Z' }),
];

/**
 * LATENCY — route /a: three calls of 100 ms; /b: five of 20 ms; /c: three of 7 ms. Equal values per
 * route, where OpenSearch's TDigest and exact interpolation give the same percentiles.
 */
export const LATENCY: readonly CaseDocument[] = [
  ...[1, 2, 3].map((n) => apiCall({ id: `la${n}`, time: `2026-03-03T0${n}:00:00.000Z`, uri: 'https://api.shop.test/a', duration: 100 })),
  ...[1, 2, 3, 4, 5].map((n) => apiCall({ id: `lb${n}`, time: `2026-03-03T1${n}:00:00.000Z`, uri: 'https://api.shop.test/b', duration: 20 })),
  ...[1, 2, 3].map((n) => apiCall({ id: `lc${n}`, time: `2026-03-03T2${n}:00:00.000Z`, uri: 'https://api.shop.test/c', duration: 7 })),
];

/**
 * USERS — profiles (default order: _id ascending):
 * u-alice: c-acme, Alice Liddell, alice@example.com, pro, 5 seats, created 2025-12-01;
 * u-bob: c-acme, Bob Builder, bob@example.com, free, 1 seat, created 2026-01-15T12:00Z;
 * u-carol: c-globex, Carol Danvers, carol@example.org, pro, 12 seats, created 2026-02-20T08:00Z;
 * u-dave: no company, Dave, pro, no email, no seats, no created_at.
 */
export const USERS: readonly CaseDocument[] = [
  {
    id: 'u-alice',
    time: '2026-02-01T00:00:00.000Z',
    data: {
      user_id: 'u-alice',
      company_id: 'c-acme',
      first_name: 'Alice',
      name: 'Alice Liddell',
      created_at: '2025-12-01T00:00:00.000Z',
      metadata: { email: 'alice@example.com', plan: 'pro', seats: 5 },
    },
  },
  {
    id: 'u-bob',
    time: '2026-02-02T00:00:00.000Z',
    data: {
      user_id: 'u-bob',
      company_id: 'c-acme',
      first_name: 'Bob',
      name: 'Bob Builder',
      created_at: '2026-01-15T12:00:00.000Z',
      metadata: { email: 'bob@example.com', plan: 'free', seats: 1 },
    },
  },
  {
    id: 'u-carol',
    time: '2026-02-03T00:00:00.000Z',
    data: {
      user_id: 'u-carol',
      company_id: 'c-globex',
      first_name: 'Carol',
      name: 'Carol Danvers',
      created_at: '2026-02-20T08:00:00.000Z',
      metadata: { email: 'carol@example.org', plan: 'pro', seats: 12 },
    },
  },
  { id: 'u-dave', time: '2026-02-04T00:00:00.000Z', data: { user_id: 'u-dave', first_name: 'Dave', metadata: { plan: 'pro' } } },
];

/** COMPANIES — c-acme (Retail), c-globex (Energy), c-initech (Retail). */
export const COMPANIES: readonly CaseDocument[] = [
  {
    id: 'c-acme',
    time: '2026-02-01T00:00:00.000Z',
    data: { company_id: 'c-acme', company_domain: 'acme.test', metadata: { industry: 'Retail', employees: 120 } },
  },
  {
    id: 'c-globex',
    time: '2026-02-02T00:00:00.000Z',
    data: { company_id: 'c-globex', company_domain: 'globex.test', metadata: { industry: 'Energy', employees: 4000 } },
  },
  {
    id: 'c-initech',
    time: '2026-02-03T00:00:00.000Z',
    data: { company_id: 'c-initech', company_domain: 'initech.test', metadata: { industry: 'Retail', employees: 30 } },
  },
];

/** SUBSCRIPTIONS — s-1 active until 2026-04-01, s-2 cancelled until 2026-03-01, s-3 trialing until 2026-03-20. */
export const SUBSCRIPTIONS: readonly CaseDocument[] = [
  {
    id: 's-1',
    time: '2026-02-01T00:00:00.000Z',
    data: {
      subscription_id: 's-1',
      company_id: 'c-acme',
      status: 'active',
      current_period_start: '2026-03-01T00:00:00.000Z',
      current_period_end: '2026-04-01T00:00:00.000Z',
    },
  },
  {
    id: 's-2',
    time: '2026-02-02T00:00:00.000Z',
    data: {
      subscription_id: 's-2',
      company_id: 'c-globex',
      status: 'cancelled',
      current_period_start: '2026-02-01T00:00:00.000Z',
      current_period_end: '2026-03-01T00:00:00.000Z',
    },
  },
  {
    id: 's-3',
    time: '2026-02-03T00:00:00.000Z',
    data: {
      subscription_id: 's-3',
      company_id: 'c-initech',
      status: 'trialing',
      current_period_start: '2026-03-06T00:00:00.000Z',
      current_period_end: '2026-03-20T00:00:00.000Z',
    },
  },
];
