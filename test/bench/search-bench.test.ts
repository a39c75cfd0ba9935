import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { benchSearch } from '../../bin/bench/search';
import { firstDifference } from '../../bin/bench/search-compare';
import { BENCH_TENANT, OTHER_TENANT, prepareSearchDataset, tenantNumberIn, type SearchDataset, type SearchDatasetSpec } from '../../bin/bench/search-dataset';
import { dashboardQueries, type DashboardQuery, type RunSql } from '../../bin/bench/search-queries';

/**
 * The search benchmark's oracle is its hand-written SQL: here each baseline is checked against the
 * same answer computed in plain JS from every stored document of a small generated data set.
 */

const SMALL: SearchDatasetSpec = { events: 3_000, days: 30, users: 300, companies: 40, routes: 12, otherTenantEvents: 400, otherTenantUsers: 150, seed: 7 };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface StoredEvent {
  id: string;
  app_id: string;
  t: number;
  doc: Record<string, any>;
}

let dir: string;
let dataset: SearchDataset;
let instance: DuckDBInstance;
let connection: DuckDBConnection;
let runSql: RunSql;
let events: StoredEvent[];
let queries: Map<string, DashboardQuery>;
let tenantNumber: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'search-bench-'));
  // A fixed "now": the generated hours (and so which of them are empty) do not depend on the time the test runs.
  dataset = await prepareSearchDataset({ dir, spec: SMALL, anchor: new Date('2026-11-25T05:30:00.000Z') });
  instance = await DuckDBInstance.create(dataset.path, { access_mode: 'READ_ONLY' });
  connection = await instance.connect();
  runSql = async (sql, values) => (await connection.runAndReadAll(sql, values)).getRowsJS();
  tenantNumber = await tenantNumberIn(connection, BENCH_TENANT);
  const rows = await runSql('SELECT id, app_id, epoch_ms("time"), doc FROM events', {});
  events = rows.map(([id, app_id, t, doc]) => ({ id: id as string, app_id: app_id as string, t: Number(t), doc: JSON.parse(doc as string) }));
  queries = new Map(dashboardQueries({ sampleEmail: dataset.sampleEmail, plan: 'enterprise' }).map((q) => [q.name, q]));
});

afterAll(async () => {
  connection?.closeSync();
  instance?.closeSync();
  await rm(dir, { recursive: true, force: true });
});

function query(prefix: string): DashboardQuery {
  const found = [...queries.values()].find((q) => q.name.startsWith(prefix));
  if (!found) throw new Error(`no query named ${prefix}…`);
  return found;
}

function inWindow(days: number): StoredEvent[] {
  const to = dataset.anchor.getTime();
  return events.filter((e) => e.app_id === BENCH_TENANT.app_id && e.t >= to - days * DAY && e.t < to);
}

function window(days: number) {
  return { tenantNumber, from: new Date(dataset.anchor.getTime() - days * DAY), to: dataset.anchor };
}

/** OpenSearch's terms answer computed in JS: buckets by count desc (or metric), key asc. */
function terms(
  docs: StoredEvent[],
  key: (e: StoredEvent) => unknown,
  size: number,
  metric?: (group: StoredEvent[]) => Record<string, number>,
  orderBy?: string,
) {
  const groups = new Map<unknown, StoredEvent[]>();
  for (const e of docs) {
    const k = key(e);
    if (k === undefined || k === null) continue;
    groups.set(k, [...(groups.get(k) ?? []), e]);
  }
  const all = [...groups].map(([k, group]) => ({ key: k, doc_count: group.length, ...(metric ? metric(group) : {}) }));
  const rank = (b: (typeof all)[number]) => (orderBy ? (b as Record<string, any>)[orderBy] : b.doc_count) as number;
  all.sort((a, b) => rank(b) - rank(a) || (a.key! < b.key! ? -1 : a.key! > b.key! ? 1 : 0));
  const buckets = all.slice(0, size);
  const keyed = all.reduce((sum, b) => sum + b.doc_count, 0);
  return { total: docs.length, sum_other_doc_count: keyed - buckets.reduce((sum, b) => sum + b.doc_count, 0), buckets };
}

function quantile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = p * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

function newYorkKeyAsString(millis: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
      .formatToParts(new Date(millis))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.000${parts.timeZoneName!.replace('GMT', '')}`;
}

describe('search benchmark data set', () => {
  it('holds exactly the events and users asked for, per tenant, inside the window', async () => {
    expect(events.filter((e) => e.app_id === BENCH_TENANT.app_id)).toHaveLength(SMALL.events);
    expect(events.filter((e) => e.app_id === OTHER_TENANT.app_id)).toHaveLength(SMALL.otherTenantEvents);
    const users = await runSql('SELECT app_id, count(*) FROM users GROUP BY ALL ORDER BY app_id', {});
    expect(users.map(([app, n]) => [app, Number(n)])).toEqual([
      [BENCH_TENANT.app_id, SMALL.users],
      [OTHER_TENANT.app_id, SMALL.otherTenantUsers],
    ]);
    const anchor = dataset.anchor.getTime();
    expect(events.every((e) => e.t >= anchor - SMALL.days * DAY && e.t < anchor)).toBe(true);
    expect(new Set(events.map((e) => e.doc.request.route)).size).toBe(SMALL.routes);
  });

  it('is shaped like collector output as the consumer indexes it', () => {
    const event = events.find((e) => e.doc.user_id !== undefined)!.doc;
    expect(event).toMatchObject({ event_type: 'api_call', is_late: false, direction: 'Incoming', org_id: BENCH_TENANT.org_id });
    expect(typeof event.duration_ms).toBe('number');
    expect(event.metadata).toEqual(expect.objectContaining({ plan: expect.any(String), email: expect.stringContaining('@') }));
    const weights = new Set(events.map((e) => e.doc.weight));
    expect([...weights].sort((a, b) => a - b)).toEqual([1, 10, 100]);
  });

  it('is reused while the parameters are unchanged, and regenerated for other parameters', async () => {
    const again = await prepareSearchDataset({ dir, spec: SMALL });
    expect(again).toMatchObject({ path: dataset.path, reused: true, sampleEmail: dataset.sampleEmail });
    expect(again.anchor.getTime()).toBe(dataset.anchor.getTime());
    const other = await prepareSearchDataset({ dir, spec: { ...SMALL, events: 500, otherTenantEvents: 50 } });
    expect(other.path).not.toBe(dataset.path);
    expect(other.reused).toBe(false);
  });

  it('gives the sample email to a user of both tenants', async () => {
    const rows = await runSql('SELECT app_id FROM users WHERE email = $email ORDER BY app_id', { email: dataset.sampleEmail });
    expect(rows.map(([app]) => app)).toEqual([BENCH_TENANT.app_id, OTHER_TENANT.app_id]);
  });
});

describe('hand-written SQL baselines agree with the documents', () => {
  it('counts by status over the last 24 hours', async () => {
    const answer = await query('count by status').sql(runSql, window(1));
    expect(
      firstDifference(
        answer,
        terms(inWindow(1), (e) => e.doc.response?.status, 20),
      ),
    ).toBeUndefined();
  });

  it('finds the top routes', async () => {
    const answer = await query('top 10 routes').sql(runSql, window(30));
    expect(
      firstDifference(
        answer,
        terms(inWindow(30), (e) => e.doc.request.route, 10),
      ),
    ).toBeUndefined();
  });

  it('orders companies by the sum of weight, missing weights counting 1', async () => {
    const answer = await query('top 10 companies').sql(runSql, window(30));
    const expected = terms(
      inWindow(30),
      (e) => e.doc.company_id,
      10,
      (group) => ({ usage: group.reduce((sum, e) => sum + (e.doc.weight ?? 1), 0) }),
      'usage',
    );
    expect(firstDifference(answer, expected)).toBeUndefined();
  });

  it('buckets by hour in New York time, filling empty hours, with local key strings', async () => {
    const answer = (await query('hourly histogram').sql(runSql, window(30))) as {
      total: number;
      buckets: { key: number; key_as_string: string; doc_count: number }[];
    };
    const docs = inWindow(30);
    // New York's offsets are whole hours, so its hours start with UTC's.
    const counts = new Map<number, number>();
    for (const e of docs) counts.set(Math.floor(e.t / HOUR) * HOUR, (counts.get(Math.floor(e.t / HOUR) * HOUR) ?? 0) + 1);
    const first = Math.min(...counts.keys());
    const last = Math.max(...counts.keys());
    const buckets = [];
    for (let key = first; key <= last; key += HOUR) buckets.push({ key, key_as_string: newYorkKeyAsString(key), doc_count: counts.get(key) ?? 0 });
    expect(firstDifference(answer, { total: docs.length, buckets })).toBeUndefined();
    expect(buckets.some((b) => b.doc_count === 0)).toBe(true);
  });

  it('computes p50/p99 latency by linear interpolation per top route', async () => {
    const answer = await query('p50/p99').sql(runSql, window(30));
    const durations = (group: StoredEvent[]) => group.map((e) => e.doc.duration_ms as number);
    const expected = terms(
      inWindow(30),
      (e) => e.doc.request.route,
      10,
      (group) => ({ p50: quantile(durations(group), 0.5), p99: quantile(durations(group), 0.99) }),
    );
    expect(firstDifference(answer, expected)).toBeUndefined();
  });

  it('filters on a metadata field and returns the newest hits', async () => {
    const answer = await query('metadata filter').sql(runSql, window(30));
    const matching = inWindow(30)
      .filter((e) => e.doc.metadata?.plan === 'enterprise')
      .sort((a, b) => b.t - a.t || (a.id < b.id ? -1 : 1));
    expect(firstDifference(answer, { total: matching.length, hits: matching.slice(0, 10).map((e) => ({ _id: e.id, _source: e.doc })) })).toBeUndefined();
  });

  it('pages with search_after through the window, newest first, each event once', async () => {
    const answer = await query('10 pages').sql(runSql, window(30));
    const sorted = inWindow(30).sort((a, b) => b.t - a.t || (a.id < b.id ? -1 : 1));
    expect(firstDifference(answer, { hits: sorted.slice(0, 1000).map((e) => ({ _id: e.id, _source: e.doc, sort: [e.t, e.id] })) })).toBeUndefined();
  });

  it("finds a user by email in the caller's tenant only", async () => {
    const answer = (await query('user search').sql(runSql, { tenantNumber })) as {
      total: number;
      hits: { _id: string; _source: Record<string, any> }[];
    };
    expect(answer.total).toBe(1);
    expect(answer.hits[0]!._source).toMatchObject({ app_id: BENCH_TENANT.app_id, metadata: { email: dataset.sampleEmail } });
  });
});

describe('the search section', () => {
  it('checks our answers against the SQL, then times every query', async () => {
    const own = await mkdtemp(join(tmpdir(), 'search-bench-run-'));
    try {
      // Enough rounds to exercise the warm-up and the fitting of rounds, not to measure anything.
      const timing = { queryBudgetMs: 200, minRounds: 3, mostRounds: 5, warmUpBudgetMs: 20, warmUpMostRounds: 3 };
      const result = await benchSearch({ dir: own, spec: SMALL, timing });
      expect(result.queries.map((q) => q.name)).toEqual([...queries.keys()]);
      for (const q of result.queries) {
        expect(q.oursMs).toBeGreaterThan(0);
        expect(q.sqlMs).toBeGreaterThan(0);
        expect(q.ratio).toBeCloseTo(q.oursMs / q.sqlMs);
        expect(q.rounds).toBeGreaterThanOrEqual(timing.minRounds);
        expect(q.rounds).toBeLessThanOrEqual(timing.mostRounds);
        // Each query also ran once on an index opened just for it (right after a restart).
        expect(q.coldMs).toBeGreaterThan(0);
      }
      expect(result.queries.find((q) => q.name.startsWith('10 pages'))?.requests).toBe(10);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});

describe('firstDifference', () => {
  it('accepts equal answers, bigints as numbers and floating-point noise', () => {
    expect(firstDifference({ a: [1, 'x', { b: 2n }], c: 0.1 + 0.2 }, { a: [1, 'x', { b: 2 }], c: 0.3 })).toBeUndefined();
  });

  it('names the first difference', () => {
    expect(firstDifference({ buckets: [{ key: 'a', doc_count: 3 }] }, { buckets: [{ key: 'a', doc_count: 4 }] })).toBe('$.buckets[0].doc_count: 3 ≠ 4');
    expect(firstDifference({ hits: [1, 2] }, { hits: [1] })).toBe('$.hits: 2 elements ≠ 1 elements');
    expect(firstDifference({ total: 1 }, { total: 1, extra: null })).toBe('$.extra: undefined ≠ null');
    expect(firstDifference({ key: 200 }, { key: '200' })).toBe('$.key: 200 ≠ "200"');
  });
});
