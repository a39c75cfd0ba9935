import { normaliseItems } from '../../functions/ingest/collector/normalise';
import { eventDocument, profileDocument } from '../../functions/search/index-documents';
import type { IndexDocument, TenantScope } from '../../functions/search/port';
import type { StreamItem } from '../../schemas/stream-record';
import { realisticEvent } from './fixtures';

/**
 * What the search benchmark's data set holds, generated deterministically from its spec: the
 * population (companies, users, emails), the routes, and the API calls of each hour as the
 * collector normalises them and the consumer indexes them, all drawn from one seeded stream.
 */

export interface SearchDatasetSpec {
  /** Events of the benchmarked tenant. */
  readonly events: number;
  readonly days: number;
  readonly users: number;
  readonly companies: number;
  readonly routes: number;
  /** The second tenant: same ids, routes and emails, so only the tenant filter tells them apart. */
  readonly otherTenantEvents: number;
  readonly otherTenantUsers: number;
  readonly seed: number;
}

export const DEFAULT_SEARCH_DATASET: SearchDatasetSpec = {
  events: 1_000_000,
  days: 30,
  users: 20_000,
  companies: 2_000,
  routes: 50,
  otherTenantEvents: 20_000,
  otherTenantUsers: 1_000,
  seed: 20261122,
};

export const BENCH_TENANT: TenantScope = { org_id: 'org_bench', app_id: 'app_dashboard' };
export const OTHER_TENANT: TenantScope = { org_id: 'org_bench', app_id: 'app_other' };

/** SDKs flush every few seconds or so many events; a collector batch spans at most this. */
const COLLECTOR_BATCH_EVENTS = 50;
const COLLECTOR_BATCH_SPAN_MS = 60_000;

/** mulberry32: small, fast and seeded, so the same spec always yields the same data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

function pickWeighted<T>(random: Random, items: readonly T[], cumulative: readonly number[]): T {
  const target = random() * cumulative[cumulative.length - 1]!;
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (cumulative[mid]! > target) high = mid;
    else low = mid + 1;
  }
  return items[low]!;
}

function cumulativeOf(weights: readonly number[]): number[] {
  let sum = 0;
  return weights.map((w) => (sum += w));
}

/** Standard normal by Box-Muller. */
function gaussian(random: Random): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function uuidOf(random: Random): string {
  const hex = (bits: number) =>
    Math.floor(random() * 2 ** bits)
      .toString(16)
      .padStart(bits / 4, '0');
  return `${hex(32)}-${hex(16)}-4${hex(12)}-${(8 + Math.floor(random() * 4)).toString(16)}${hex(12)}-${hex(24)}${hex(24)}`;
}

interface Route {
  readonly verb: string;
  readonly path: string;
  /** Median latency in ms. */
  readonly latency: number;
}

const RESOURCES = [
  'orders',
  'customers',
  'invoices',
  'payments',
  'subscriptions',
  'products',
  'prices',
  'refunds',
  'webhooks',
  'reports',
  'files',
  'teams',
  'usage',
];
/** Listing and creating share a path, as in most REST APIs; the route groups by path. */
const OPERATIONS: readonly { verb: string; suffix: string; latency: number }[] = [
  { verb: 'GET', suffix: '', latency: 40 },
  { verb: 'POST', suffix: '', latency: 120 },
  { verb: 'GET', suffix: '/search', latency: 180 },
  { verb: 'GET', suffix: '/stats', latency: 300 },
  { verb: 'POST', suffix: '/export', latency: 900 },
];

/** Verb and path pairs over `count` distinct paths (templates without ids, as route grouping expects), most popular first. */
function routesOf(count: number): Route[] {
  const routes: Route[] = [];
  const paths = new Set<string>();
  for (let i = 0; ; i++) {
    const resource = RESOURCES[i % RESOURCES.length]!;
    const operation = OPERATIONS[Math.floor(i / RESOURCES.length) % OPERATIONS.length]!;
    const version = Math.floor(i / (RESOURCES.length * OPERATIONS.length)) + 1;
    const path = `/v${version}/${resource}${operation.suffix}`;
    if (!paths.has(path) && paths.size === count) return routes;
    paths.add(path);
    routes.push({ verb: operation.verb, path, latency: operation.latency * (0.6 + (i % 7) * 0.15) });
  }
}

const ERROR_STATUSES = [400, 401, 403, 404, 409, 422, 429, 500, 502, 503];
const ERROR_WEIGHTS = cumulativeOf([14, 8, 4, 30, 4, 12, 10, 10, 4, 4]);
const SUCCESS_STATUS: Record<string, number> = { GET: 200, POST: 201, PUT: 200, DELETE: 204 };
const PLANS = ['free', 'starter', 'pro', 'enterprise'];
const PLAN_WEIGHTS = cumulativeOf([50, 25, 18, 7]);
const REGIONS = ['us-east-1', 'us-west-2', 'eu-west-1', 'ap-southeast-2'];
const REGION_WEIGHTS = cumulativeOf([45, 20, 25, 10]);
const FIRST_NAMES = ['ada', 'alan', 'grace', 'linus', 'margaret', 'dennis', 'barbara', 'ken', 'frances', 'edsger', 'radia', 'donald'];
const LAST_NAMES = ['lovelace', 'turing', 'hopper', 'torvalds', 'hamilton', 'ritchie', 'liskov', 'thompson', 'allen', 'dijkstra', 'perlman', 'knuth'];

export interface Population {
  readonly companyPlan: string[];
  readonly companyDomain: string[];
  readonly userCompany: Int32Array;
  readonly userEmail: string[];
  readonly userName: string[];
}

export function populationOf(spec: SearchDatasetSpec, random: Random): Population {
  const companyPlan = Array.from({ length: spec.companies }, () => pickWeighted(random, PLANS, PLAN_WEIGHTS));
  const companyDomain = Array.from({ length: spec.companies }, (_, c) => `${LAST_NAMES[c % LAST_NAMES.length]}-${c}.example.com`);
  // Company sizes are skewed: a few large customers, a long tail of small ones.
  const userCompany = Int32Array.from({ length: spec.users }, () => Math.floor(spec.companies * random() ** 1.6));
  const userName: string[] = [];
  const userEmail: string[] = [];
  for (let u = 0; u < spec.users; u++) {
    const first = FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)]!;
    const last = LAST_NAMES[Math.floor(random() * LAST_NAMES.length)]!;
    userName.push(`${first} ${last}`);
    userEmail.push(`${first}.${last}.${u}@${companyDomain[userCompany[u]!]!}`);
  }
  return { companyPlan, companyDomain, userCompany, userEmail, userName };
}

/**
 * Events per hour: a daily cycle peaking in US afternoons, quieter weekends; rounded by largest
 * remainder so the hours add up to `total` exactly.
 */
function hourlyCounts(total: number, hours: number, firstHourMs: number): number[] {
  const weights = Array.from({ length: hours }, (_, h) => {
    const at = new Date(firstHourMs + h * 3_600_000);
    const newYorkHour = (at.getUTCHours() + 19) % 24;
    const weekend = at.getUTCDay() === 0 || at.getUTCDay() === 6 ? 0.55 : 1;
    return weekend * (1 + 0.7 * Math.cos((2 * Math.PI * (newYorkHour - 14)) / 24));
  });
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / sum) * total);
  const counts = exact.map(Math.floor);
  const remainders = exact.map((e, h) => ({ h, r: e - counts[h]! })).sort((a, b) => b.r - a.r);
  const missing = total - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; i < missing; i++) counts[remainders[i]!.h]!++;
  return counts;
}

interface GeneratedCall {
  readonly scope: TenantScope;
  readonly atMs: number;
  readonly record: Record<string, unknown>;
}

class EventFactory {
  private readonly routeCumulative: number[];

  constructor(
    private readonly random: Random,
    private readonly population: Population,
    private readonly routes: readonly Route[],
    private readonly users: number,
  ) {
    this.routeCumulative = cumulativeOf(routes.map((_, k) => 1 / (k + 1) ** 0.9));
  }

  /** An API call as an SDK sends it, before the collector. */
  call(ordinal: number, atMs: number): Record<string, unknown> {
    const random = this.random;
    const route = pickWeighted(random, this.routes, this.routeCumulative);
    const failed = random() < 0.09;
    const status = failed ? pickWeighted(random, ERROR_STATUSES, ERROR_WEIGHTS) : SUCCESS_STATUS[route.verb]!;
    const duration = Math.max(1, Math.min(30_000, Math.round(route.latency * Math.exp(0.55 * gaussian(random)) * (status >= 500 ? 3 : 1))));
    const event = realisticEvent(ordinal, new Date(atMs), {
      requestTime: new Date(atMs).toISOString(),
      uri: `https://api.example.com${route.path}?page=${ordinal % 10}&limit=50`,
      verb: route.verb,
      responseTime: new Date(atMs + duration).toISOString(),
      status,
      transactionId: uuidOf(random),
    });
    const sampled = random();
    // SDKs send a weight only when sampling; the collector fills in 1 otherwise.
    if (sampled >= 0.9) event.weight = sampled < 0.98 ? 10 : 100;
    const region = pickWeighted(random, REGIONS, REGION_WEIGHTS);
    if (random() < 0.04) {
      // Anonymous traffic: no user, no company.
      delete event.user_id;
      delete event.company_id;
      event.metadata = { region, sdk: 'moesif-nodejs/3.9.1' };
    } else {
      const user = Math.floor(this.users * random() ** 2);
      const company = this.population.userCompany[user]!;
      event.user_id = `user_${user}`;
      event.company_id = `company_${company}`;
      event.session_token = `sess_${user}_${Math.floor(atMs / 86_400_000)}`;
      event.metadata = {
        plan: this.population.companyPlan[company],
        email: this.population.userEmail[user],
        region,
        sdk: 'moesif-nodejs/3.9.1',
        feature_flags: random() < 0.3 ? ['new_checkout', 'usage_alerts'] : ['new_checkout'],
      };
    }
    return event;
  }
}

/** The events of a data set, hour by hour, drawn from `random` after the population. */
export function* hourlyDocuments(spec: SearchDatasetSpec, anchor: Date, population: Population, random: Random): Generator<IndexDocument[]> {
  const factory = new EventFactory(random, population, routesOf(spec.routes), spec.users);
  const hours = spec.days * 24;
  const firstHourMs = anchor.getTime() - hours * 3_600_000;
  const mainCounts = hourlyCounts(spec.events, hours, firstHourMs);
  const otherCounts = hourlyCounts(spec.otherTenantEvents, hours, firstHourMs);
  let ordinal = 0;
  for (let h = 0; h < hours; h++) {
    const hourStart = firstHourMs + h * 3_600_000;
    const calls: GeneratedCall[] = [];
    for (const [scope, count] of [
      [BENCH_TENANT, mainCounts[h]!],
      [OTHER_TENANT, otherCounts[h]!],
    ] as const) {
      for (let i = 0; i < count; i++) {
        const atMs = hourStart + Math.floor(random() * 3_600_000);
        calls.push({ scope, atMs, record: factory.call(ordinal++, atMs) });
      }
    }
    calls.sort((a, b) => a.atMs - b.atMs);
    yield collect(calls);
  }
}

/**
 * The calls of one hour through the collector's own normalisation, in the batches an SDK would
 * send (per tenant, a few dozen events, received a moment after the last one), then as the
 * consumer indexes them.
 */
function collect(calls: readonly GeneratedCall[]): IndexDocument[] {
  const documents: IndexDocument[] = [];
  for (const scope of [BENCH_TENANT, OTHER_TENANT]) {
    let batch: GeneratedCall[] = [];
    const send = () => {
      if (batch.length === 0) return;
      const last = batch[batch.length - 1]!.atMs;
      const items: StreamItem[] = normaliseItems(
        'event',
        batch.map((c) => c.record),
        { batch: true },
        { receivedAt: new Date(last + 1_500), sourceIp: '203.0.113.10', backfillEnabled: false },
      );
      for (const item of items) documents.push(eventDocument(scope, 'event', item));
      batch = [];
    };
    for (const call of calls) {
      if (call.scope !== scope) continue;
      if (batch.length === COLLECTOR_BATCH_EVENTS || (batch.length > 0 && call.atMs - batch[0]!.atMs > COLLECTOR_BATCH_SPAN_MS)) send();
      batch.push(call);
    }
    send();
  }
  return documents;
}

/** Merged user profiles as the consumer indexes them: the benchmarked tenant's, then the other tenant's (same ids and emails). */
export function userDocuments(spec: SearchDatasetSpec, population: Population, anchor: Date, random: Random): IndexDocument[] {
  const documents: IndexDocument[] = [];
  const tenants: [TenantScope, number][] = [
    [BENCH_TENANT, spec.users],
    [OTHER_TENANT, spec.otherTenantUsers],
  ];
  for (const [scope, count] of tenants) {
    for (let u = 0; u < count; u++) {
      const company = population.userCompany[u]!;
      const createdAt = new Date(anchor.getTime() - Math.floor(random() * 400 * 86_400_000)).toISOString();
      const updatedAt = new Date(anchor.getTime() - Math.floor(random() * spec.days * 86_400_000)).toISOString();
      const [first, last] = population.userName[u]!.split(' ');
      const source = {
        user_id: `user_${u}`,
        company_id: `company_${company}`,
        modified_time: updatedAt,
        metadata: {
          email: population.userEmail[u],
          first_name: first,
          last_name: last,
          plan: population.companyPlan[company],
          country: pickWeighted(random, REGIONS, REGION_WEIGHTS),
        },
        created_at: createdAt,
        updated_at: updatedAt,
      };
      documents.push(profileDocument(scope, 'users', `user_${u}`, source, 1, updatedAt));
    }
  }
  return documents;
}
