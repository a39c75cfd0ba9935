import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { BatchWriteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { reportId, subscriptionReportKey } from '../../functions/billing/reports/report-id';
import {
  deliveredReport,
  openReportsPartition,
  ReportStore,
  reportsPartition,
  type ReportOutcome,
  type ReportTenant,
  type WindowReports,
} from '../../functions/billing/reports/report-store';
import type { BillingReport } from '../../schemas/billing/report';
import { encodeRowTable } from '../../functions/billing/reports/row-table';
import { FORMAT_VERSION, packShards } from '../../functions/billing/reports/report-codec';
import { startTestRuntime, type TestRuntime } from './support/runtime';

const HOUR = 3_600_000;

/**
 * Delivery outcomes are an overlay on the group header (report-store.ts): readers must see exactly
 * what a full rewrite of the shards would have stored, and groups written before the overlay
 * existed (no `outcomes_gz`) must read as they are.
 */
describe('billing report store: delivery outcomes as a header overlay', () => {
  let rt: TestRuntime;
  let store: ReportStore;
  let tenant: ReportTenant;
  let table: string;
  const meterId = 'meter/overlay';
  const base = Math.floor(Date.now() / HOUR) * HOUR - 10 * HOUR;
  const w = (n: number) => ({ start: new Date(base + n * HOUR), end: new Date(base + (n + 1) * HOUR) });

  function pending(window: number, subscriptionId: string, usage: number): BillingReport {
    const { start, end } = w(window);
    return {
      _id: reportId({ windowStart: start, meterId, reportKey: subscriptionReportKey(subscriptionId) }),
      org_id: tenant.orgId,
      app_id: tenant.appId,
      type: 'usage',
      status: 'pending',
      success: false,
      usage_start_time: start.toISOString(),
      usage_end_time: end.toISOString(),
      subscription_id: subscriptionId,
      company_id: `co-${subscriptionId}`,
      billing_meter_id: meterId,
      provider: 'webhook',
      meter_metric: usage,
      meter_metric_exact: String(usage),
      meter_usage: usage,
      report_total_usage: usage,
      report_version: 1,
      last_success_time: null,
      idempotency_key: `uab_${subscriptionId}_${window}`,
      delivery_runs: 0,
      provider_requests: [],
      amount: usage / 100,
      amount_exact: String(usage / 100),
      currency: 'usd',
      subscription_period_start: null,
      subscription_period_end: null,
      usage: { aggregator: 'sum' },
      versions: [
        { report_version: 1, meter_metric: String(usage), meter_usage: usage, delta: usage, amount_exact: String(usage / 100), created_at: end.toISOString() },
      ],
      created_at: end.toISOString(),
      updated_at: end.toISOString(),
    };
  }

  /** What delivery does to a report: outcome fields changed, balance and channel records added. */
  function delivered(report: BillingReport, at: string, success = true): BillingReport {
    const record = {
      job_id: report.idempotency_key,
      request_time: at,
      success,
      status_code: success ? 200 : 503,
      error_code: success ? null : 'http_503',
      error_message: success ? null : 'down',
    };
    return {
      ...report,
      beginning_balance: { sequence_id: 1, current_balance: 10, pending_activity: 0, available_balance: 10 },
      ending_balance: { sequence_id: 2, current_balance: 9, pending_activity: 0, available_balance: 9 },
      balance_changes: [{ amount: -1 }],
      status: success ? 'success' : 'retrying',
      success,
      delivery_runs: report.delivery_runs + 1,
      provider_requests: [...report.provider_requests, record],
      channel_requests: [{ channel_id: 'ch', provider_requests: [record] }],
      ...(success ? { last_success_time: at } : {}),
      updated_at: at,
    };
  }

  const header = async (window: number) =>
    (
      await rt.clients.documents.send(
        new GetCommand({
          TableName: table,
          Key: { pk: reportsPartition(tenant), sk: `W#${w(window).start.toISOString()}#${encodeURIComponent(meterId)}#H` },
          ConsistentRead: true,
        }),
      )
    ).Item!;
  const shardCount = async (window: number) =>
    (
      await rt.clients.documents.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
          ConsistentRead: true,
          ExpressionAttributeValues: { ':pk': reportsPartition(tenant), ':p': `W#${w(window).start.toISOString()}#${encodeURIComponent(meterId)}#S#` },
        }),
      )
    ).Items!.length;
  const openMarkers = async () => (await store.openWindows(tenant, meterId)).map((d) => d.getTime());
  /** Reads must be byte-identical to the reports written (key order included). */
  const expectSame = (actual: readonly BillingReport[], expected: readonly BillingReport[]) => expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));

  beforeAll(async () => {
    rt = await startTestRuntime('billing-report-outcomes');
    tenant = { orgId: rt.credentials.org_id, appId: rt.credentials.app_id };
    table = rt.names.tables.billing;
    store = new ReportStore(rt.clients.documents, table);
  }, 120_000);
  afterAll(async () => rt?.dispose());

  it('records outcomes on the header without rewriting shards; every reader sees the delivered reports', async () => {
    const reports = [pending(0, 'a', 5), pending(0, 'b', 7), { ...pending(0, 'c', 0), status: 'success' as const, success: true }];
    const committed = await store.commitWindow({
      tenant,
      meterId,
      window: w(0),
      reports,
      previous: undefined,
      evaluatedAt: new Date(base + HOUR),
      now: new Date(),
    });
    if (committed === 'conflict') throw new Error('conflict');
    expect(await openMarkers()).toContain(w(0).start.getTime());

    const at = new Date().toISOString();
    // a delivered, b still retrying, c untouched (the same object).
    const after = [delivered(committed.reports[0]!, at), delivered(committed.reports[1]!, at, false), committed.reports[2]!];
    const outcome = await store.commitOutcomes({ tenant, previous: committed, reports: after, now: new Date() });
    if (outcome === 'conflict') throw new Error('conflict');
    expect(outcome.generation).toBe(committed.generation);
    expect(outcome.revision).toBe(committed.revision + 1);
    expectSame(outcome.reports, after);

    const stored = await header(0);
    expect(stored['outcomes_gz']).toBeDefined();
    expect(stored['generation']).toBe(committed.generation);
    expect(stored['open_count']).toBe(1);
    expect(await shardCount(0)).toBe(1);

    const read = (await store.readWindow(tenant, meterId, w(0).start))!;
    expectSame(read.reports, after);
    expect(read.revision).toBe(outcome.revision);
    expectSame([(await store.getReport(tenant, after[0]!._id))!], [after[0]!]);
    const listed = await store.listWindows(tenant, { from: w(0).start, to: w(0).end, meterId });
    expectSame(listed.windows[0]!.reports, after);

    // A later run settles b on top of the overlay (read back, not the in-memory group).
    const later = new Date(Date.now() + 1000).toISOString();
    const settled = [read.reports[0]!, delivered(read.reports[1]!, later), read.reports[2]!];
    const second = await store.commitOutcomes({ tenant, previous: read, reports: settled, now: new Date() });
    if (second === 'conflict') throw new Error('conflict');
    expectSame((await store.readWindow(tenant, meterId, w(0).start))!.reports, settled);
    expect(await openMarkers()).not.toContain(w(0).start.getTime());

    // A stale group (the revision moved on) loses: nothing is written.
    expect(await store.commitOutcomes({ tenant, previous: read, reports: settled.map((r) => ({ ...r, updated_at: 'x' })), now: new Date() })).toBe('conflict');
    expectSame((await store.readWindow(tenant, meterId, w(0).start))!.reports, settled);

    // A correction (full commit) writes the merged reports to new shards and drops the overlay.
    const current = (await store.readWindow(tenant, meterId, w(0).start))!;
    const corrected = current.reports.map((r) => (r.subscription_id === 'a' ? { ...r, report_version: 2, status: 'pending' as const, meter_usage: 6 } : r));
    const full = await store.commitWindow({ tenant, meterId, window: w(0), reports: corrected, previous: current, evaluatedAt: new Date(), now: new Date() });
    if (full === 'conflict') throw new Error('conflict');
    expect(full.generation).not.toBe(committed.generation);
    expect((await header(0))['outcomes_gz']).toBeUndefined();
    expectSame((await store.readWindow(tenant, meterId, w(0).start))!.reports, corrected);
  });

  it('removes fields a delivery dropped and keeps the exact key order of the delivered report', async () => {
    const first = { ...pending(1, 'a', 3), error_code: 'x', error_message: 'old' };
    const committed = await store.commitWindow({
      tenant,
      meterId,
      window: w(1),
      reports: [first],
      previous: undefined,
      evaluatedAt: new Date(),
      now: new Date(),
    });
    if (committed === 'conflict') throw new Error('conflict');
    const { error_code: _code, error_message: _message, ...withoutError } = committed.reports[0]!;
    // Re-ordered keys: a merge onto the shard copy would order them differently, so the whole report is kept.
    const reordered = Object.fromEntries(Object.entries({ ...withoutError, status: 'success', success: true }).reverse()) as BillingReport;
    const outcome = await store.commitOutcomes({ tenant, previous: committed, reports: [reordered], now: new Date() });
    if (outcome === 'conflict') throw new Error('conflict');
    const read = (await store.readWindow(tenant, meterId, w(1).start))!;
    expectSame(read.reports, [reordered]);
    expect(read.reports[0]).not.toHaveProperty('error_code');
  });

  it('a field a delivery set to undefined is gone after the read, as after a full rewrite', async () => {
    const first = { ...pending(4, 'a', 3), error_code: 'x', error_message: 'old' };
    const committed = await store.commitWindow({
      tenant,
      meterId,
      window: w(4),
      reports: [first],
      previous: undefined,
      evaluatedAt: new Date(),
      now: new Date(),
    });
    if (committed === 'conflict') throw new Error('conflict');
    const cleared = { ...committed.reports[0]!, status: 'success' as const, success: true, error_code: undefined, error_message: undefined };
    const outcome = await store.commitOutcomes({ tenant, previous: committed, reports: [cleared], now: new Date() });
    if (outcome === 'conflict') throw new Error('conflict');
    const read = (await store.readWindow(tenant, meterId, w(4).start))!;
    expectSame(read.reports, [cleared]);
    expect(read.reports[0]).not.toHaveProperty('error_code');
    expect(read.reports[0]!.status).toBe('success');
  });

  it('reads a group with no overlay yet (a header without outcomes_gz) and records outcomes on it', async () => {
    // A shard generation and a header without outcomes_gz, as a commit of new windows leaves them.
    const reports = [pending(2, 'a', 4), pending(2, 'b', 9)];
    const pk = reportsPartition(tenant);
    const prefix = `W#${w(2).start.toISOString()}#${encodeURIComponent(meterId)}#`;
    const common = { meter_id: meterId, window_start: w(2).start.toISOString() };
    await rt.clients.documents.send(
      new BatchWriteCommand({
        RequestItems: {
          [table]: [
            { PutRequest: { Item: { pk, sk: `${prefix}S#oldgen#0000`, ...common, generation: 'oldgen', reports_gz: (await packShards(reports))[0]! } } },
            {
              PutRequest: {
                Item: {
                  pk,
                  sk: `${prefix}H`,
                  ...common,
                  window_end: w(2).end.toISOString(),
                  generation: 'oldgen',
                  shards: 1,
                  revision: 3,
                  report_count: 2,
                  open_count: 2,
                  evaluated_at: new Date(base).toISOString(),
                  updated_at: new Date(base).toISOString(),
                },
              },
            },
            { PutRequest: { Item: { pk: openReportsPartition(tenant), sk: `${encodeURIComponent(meterId)}#${w(2).start.toISOString()}`, ...common } } },
          ],
        },
      }),
    );
    const old = (await store.readWindow(tenant, meterId, w(2).start))!;
    expectSame(old.reports, reports);
    expect(old.revision).toBe(3);

    const at = new Date().toISOString();
    const after = old.reports.map((r) => delivered(r, at));
    const outcome = await store.commitOutcomes({ tenant, previous: old, reports: after, now: new Date() });
    if (outcome === 'conflict') throw new Error('conflict');
    expect(outcome.generation).toBe('oldgen');
    expectSame((await store.readWindow(tenant, meterId, w(2).start))!.reports, after);
    expect(await openMarkers()).not.toContain(w(2).start.getTime());
  });

  /** Stored data of any format but the current one (report-codec.ts FORMAT_VERSION): nothing older was ever released. */
  const otherFormats = [
    { name: 'a bare JSON array', window: 5, shard: (reports: BillingReport[]) => Buffer.from(JSON.stringify(reports)) },
    {
      name: 'a row table of another version',
      window: 8,
      shard: (reports: BillingReport[]) => Buffer.concat([Buffer.from('{"v":2,"reports":'), encodeRowTable(reports), Buffer.from('}')]),
    },
  ];

  it.each(otherFormats)('refuses a shard stored as $name, loudly, instead of guessing at it', async ({ window, shard }) => {
    const reports = [pending(window, 'a', 4), pending(window, 'b', 9)];
    const at = new Date(base).toISOString();
    const pk = reportsPartition(tenant);
    const prefix = `W#${w(window).start.toISOString()}#${encodeURIComponent(meterId)}#`;
    const common = { meter_id: meterId, window_start: w(window).start.toISOString() };
    const generation = `other${window}`;
    await rt.clients.documents.send(
      new BatchWriteCommand({
        RequestItems: {
          [table]: [
            { PutRequest: { Item: { pk, sk: `${prefix}S#${generation}#0000`, ...common, generation, reports_gz: gzipSync(shard(reports)) } } },
            {
              PutRequest: {
                Item: {
                  pk,
                  sk: `${prefix}H`,
                  ...common,
                  window_end: w(window).end.toISOString(),
                  generation,
                  shards: 1,
                  revision: 2,
                  report_count: 2,
                  open_count: 1,
                  evaluated_at: at,
                  updated_at: at,
                },
              },
            },
          ],
        },
      }),
    );
    await expect(store.readWindow(tenant, meterId, w(window).start)).rejects.toThrow(/a report shard has an unknown format/);
  });

  it("writes the current format: shared values once, records of a delivery stored once with their report's own key left out, channel copies restored", async () => {
    const reports = Array.from({ length: 300 }, (_, i) => pending(6, `s${String(i).padStart(3, '0')}`, i + 1));
    const committed = await store.commitWindow({ tenant, meterId, window: w(6), reports, previous: undefined, evaluatedAt: new Date(), now: new Date() });
    if (committed === 'conflict') throw new Error('conflict');
    const shard = (
      await rt.clients.documents.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
          ConsistentRead: true,
          ExpressionAttributeValues: { ':pk': reportsPartition(tenant), ':p': `W#${w(6).start.toISOString()}#${encodeURIComponent(meterId)}#S#` },
        }),
      )
    ).Items![0]!;
    const shardJson = JSON.parse(gunzipSync(shard['reports_gz'] as Uint8Array).toString('utf8')) as { v: number; reports: { rows: unknown[][] } };
    expect(shardJson.v).toBe(FORMAT_VERSION);
    expect(shardJson.reports.rows).toHaveLength(300);
    expect(JSON.stringify(shardJson).length).toBeLessThan(JSON.stringify(reports).length * 0.6);

    const at = new Date().toISOString();
    // Every report delivered once: each channel holds exactly its report's records (left out when stored);
    // one report also has an older record of its own (its channel's copy differs, so it is kept).
    const after = committed.reports.map((r, i) =>
      i === 7
        ? {
            ...delivered(r, at),
            provider_requests: [
              { job_id: 'older', request_time: at, success: false, status_code: 503, error_code: 'http_503', error_message: 'down' },
              ...delivered(r, at).provider_requests,
            ],
          }
        : delivered(r, at),
    );
    const outcome = await store.commitOutcomes({ tenant, previous: committed, reports: after, now: new Date() });
    if (outcome === 'conflict') throw new Error('conflict');
    const overlay = JSON.parse(gunzipSync((await header(6))['outcomes_gz'] as Uint8Array).toString('utf8')) as {
      v: number;
      keys: string[];
      set: { shapes: { values?: [number, unknown[]][] }[]; rows: unknown[][] };
      other: unknown[];
    };
    expect(overlay.v).toBe(FORMAT_VERSION);
    expect(overlay.keys).toHaveLength(300);
    const stored = JSON.stringify(overlay.set);
    // One channel entry kept whole (report 7's); the others are the same stripped entry, stored once.
    expect(stored.match(/"channel_id":"ch","provider_requests"/g)).toHaveLength(1);
    expect(stored.match(/"channel_id":"ch"/g)).toHaveLength(2);
    // The delivery's record names each report's own key as 0: 299 reports share one stored list.
    expect(stored).not.toContain(after[0]!.idempotency_key);
    expect(stored).toContain(after[7]!.idempotency_key);
    const lists = overlay.set.shapes.flatMap((shape) => shape.values ?? []).map(([, values]) => values.length);
    expect(Math.max(...lists)).toBeLessThanOrEqual(2);
    // Records written out: the shared list's one, report 7's two and its channel entry's one.
    expect(stored.match(/"request_time"/g)).toHaveLength(4);
    const read = (await store.readWindow(tenant, meterId, w(6).start))!;
    expectSame(read.reports, after);
    // Restored records are copies: changing one report's channel records leaves its provider_requests alone.
    (read.reports[0]!.channel_requests![0]!.provider_requests[0] as { success: boolean }).success = false;
    expect(read.reports[0]!.provider_requests[0]!.success).toBe(true);
  });

  it('takes what a delivery says it set and reads back exactly the delivered reports', async () => {
    const reports = Array.from({ length: 50 }, (_, i) => pending(9, `c${String(i).padStart(2, '0')}`, i + 1));
    const committed = await store.commitWindow({ tenant, meterId, window: w(9), reports, previous: undefined, evaluatedAt: new Date(), now: new Date() });
    if (committed === 'conflict') throw new Error('conflict');
    const at = new Date().toISOString();
    const outcomes = new Map<BillingReport, ReportOutcome>();
    const after = committed.reports.map((from, i) => {
      if (i % 10 === 0) return from;
      const record = {
        job_id: from.idempotency_key,
        request_time: at,
        success: i % 7 !== 0,
        status_code: i % 7 !== 0 ? 200 : 503,
        error_code: null,
        error_message: null,
      };
      // A field set to the value it had (success false on a retry) is not stored; new keys go last.
      const set: Record<string, unknown> = {
        status: i % 7 !== 0 ? 'success' : 'retrying',
        success: i % 7 !== 0,
        delivery_runs: 1,
        provider_requests: [record],
        channel_requests: [{ channel_id: 'ch', provider_requests: [record] }],
      };
      if (i % 7 !== 0) set['last_success_time'] = at;
      set['updated_at'] = at;
      const report = { ...from, ...set } as BillingReport;
      outcomes.set(from, { set });
      return report;
    });
    const outcome = await store.commitOutcomes({ tenant, previous: committed, delivered: { reports: committed.reports, outcomes }, now: new Date() });
    if (outcome === 'conflict') throw new Error('conflict');
    expect(outcome.generation).toBe(committed.generation);
    expectSame((await store.readWindow(tenant, meterId, w(9).start))!.reports, after);
  });

  it('commits outcomes prepared ahead without keeping the groups, in one batch, a lost race failing only its own group', async () => {
    const first = await store.commitWindow({
      tenant,
      meterId,
      window: w(12),
      reports: [pending(12, 'a', 1), pending(12, 'b', 2)],
      previous: undefined,
      evaluatedAt: new Date(),
      now: new Date(),
    });
    const second = await store.commitWindow({
      tenant,
      meterId,
      window: w(13),
      reports: [pending(13, 'a', 3)],
      previous: undefined,
      evaluatedAt: new Date(),
      now: new Date(),
    });
    if (first === 'conflict' || second === 'conflict') throw new Error('conflict');
    const at = new Date().toISOString();
    const firstAfter = first.reports.map((r) => delivered(r, at));
    const secondAfter = second.reports.map((r) => delivered(r, at));
    const prepared = [
      store.prepareOutcomes({ tenant, previous: first, reports: firstAfter, now: new Date() }, { keepGroup: false }),
      store.prepareOutcomes({ tenant, previous: second, reports: secondAfter, now: new Date() }, { keepGroup: false }),
    ];
    // Encoded when prepared: an overlay on the header, holding no reports.
    expect(prepared.map((p) => p.kind)).toEqual(['overlay', 'overlay']);
    expect(prepared.every((p) => p.kind === 'overlay' && p.group === undefined)).toBe(true);
    // Another writer commits the second window first: only that group conflicts.
    await store.commitWindow({ tenant, meterId, window: w(13), reports: secondAfter, previous: second, evaluatedAt: new Date(), now: new Date() });
    expect(await store.commitPreparedOutcomes(prepared)).toEqual(['committed', 'conflict']);
    expectSame((await store.readWindow(tenant, meterId, w(12).start))!.reports, firstAfter);
    expect((await store.readWindow(tenant, meterId, w(12).start))!.revision).toBe(first.revision + 1);
  });

  it('records a delivery told as outcomes (fields set, a replacement, untouched and balance-drawn reports) as the reports deliveredReport gives', async () => {
    const failedBefore = { ...pending(15, 'd', 4), status: 'retrying' as const, error_code: 'http_503', error_message: 'down' };
    const committed = await store.commitWindow({
      tenant,
      meterId,
      window: w(15),
      reports: [pending(15, 'a', 1), pending(15, 'b', 2), { ...pending(15, 'c', 0), status: 'success' as const, success: true }, failedBefore],
      previous: undefined,
      evaluatedAt: new Date(),
      now: new Date(),
    });
    if (committed === 'conflict') throw new Error('conflict');
    const at = new Date().toISOString();
    const record = (r: BillingReport, success: boolean) => ({
      job_id: r.idempotency_key,
      request_time: at,
      success,
      status_code: success ? 200 : 503,
      error_code: success ? null : 'http_503',
      error_message: success ? null : 'down',
    });
    const [a, b, c, d] = committed.reports as [BillingReport, BillingReport, BillingReport, BillingReport];
    // b had its balance drawn: delivery got a copy of it, not the stored report.
    const drawnB = {
      ...b,
      beginning_balance: { sequence_id: 1, current_balance: 10, pending_activity: 0, available_balance: 10 },
      ending_balance: { sequence_id: 2, current_balance: 8, pending_activity: 0, available_balance: 8 },
      balance_changes: [{ amount: -2 }],
    };
    const { error_code: _code, error_message: _message, ...dWithoutError } = d;
    const outcomes = new Map<BillingReport, ReportOutcome>([
      [
        a,
        {
          set: {
            status: 'success',
            success: true,
            delivery_runs: 1,
            provider_requests: [record(a, true)],
            channel_requests: [{ channel_id: 'ch', provider_requests: [record(a, true)] }],
            last_success_time: at,
            updated_at: at,
          },
        },
      ],
      [drawnB, { set: { status: 'retrying', success: false, delivery_runs: 1, provider_requests: [record(b, false)], updated_at: at } }],
      [
        d,
        {
          replacement: {
            ...dWithoutError,
            status: 'success',
            success: true,
            delivery_runs: 1,
            provider_requests: [record(d, true)],
            last_success_time: at,
            updated_at: at,
          },
        },
      ],
    ]);
    const given = [a, drawnB, c, d];
    const expected = given.map((r) => deliveredReport(r, outcomes.get(r)));
    expect(expected[0]).toMatchObject({ status: 'success', last_success_time: at });
    expect(expected[1]!.ending_balance?.current_balance).toBe(8);
    expect(expected[2]).toBe(c);
    expect(expected[3]!.error_code).toBeUndefined();

    const prepared = store.prepareOutcomes({ tenant, previous: committed, delivered: { reports: given, outcomes }, now: new Date() });
    expect(prepared.kind).toBe('overlay');
    const [result] = await store.commitPreparedOutcomes([prepared]);
    if (result === 'conflict' || result === 'committed' || result === undefined) throw new Error(`unexpected ${String(result)}`);
    expectSame(result.reports, expected);
    expectSame((await store.readWindow(tenant, meterId, w(15).start))!.reports, expected);
    expect((await header(15))['open_count']).toBe(1);
    expect(await shardCount(15)).toBe(committed.shards);

    // A group this store did not hand out: the delivered reports are made and written as new shards.
    const read = (await store.readWindow(tenant, meterId, w(15).start))!;
    // A group this store did not hand out: no stored copies to compute an overlay against.
    const { storedCopies: _readCopies, ...copy }: WindowReports = read;
    const again = new Map<BillingReport, ReportOutcome>([
      [read.reports[1]!, { set: { status: 'success', success: true, delivery_runs: 2, last_success_time: at, updated_at: at } }],
    ]);
    const rewritten = await store.commitOutcomes({ tenant, previous: copy, delivered: { reports: read.reports, outcomes: again }, now: new Date() });
    if (rewritten === 'conflict') throw new Error('conflict');
    expect(rewritten.generation).not.toBe(read.generation);
    expectSame(
      (await store.readWindow(tenant, meterId, w(15).start))!.reports,
      read.reports.map((r) => deliveredReport(r, again.get(r))),
    );
    expect((await header(15))['open_count']).toBe(0);
  });

  it('falls back to a full rewrite for a group it did not hand out, and for an overlay too big for the header', async () => {
    const committed = await store.commitWindow({
      tenant,
      meterId,
      window: w(3),
      reports: [pending(3, 'a', 1), pending(3, 'b', 2)],
      previous: undefined,
      evaluatedAt: new Date(),
      now: new Date(),
    });
    if (committed === 'conflict') throw new Error('conflict');
    const { storedCopies: _committedCopies, ...copy }: WindowReports = committed;
    const at = new Date().toISOString();
    const after = copy.reports.map((r) => delivered(r, at));
    const rewritten = await store.commitOutcomes({ tenant, previous: copy, reports: after, now: new Date() });
    if (rewritten === 'conflict') throw new Error('conflict');
    expect(rewritten.generation).not.toBe(committed.generation);
    expectSame((await store.readWindow(tenant, meterId, w(3).start))!.reports, after);

    // ~400 KB of incompressible provider messages: no room on the header.
    const read = (await store.readWindow(tenant, meterId, w(3).start))!;
    const noisy = read.reports.map((r) => ({ ...r, error_message: randomBytes(200_000).toString('base64') }));
    const big = await store.commitOutcomes({ tenant, previous: read, reports: noisy, now: new Date() });
    if (big === 'conflict') throw new Error('conflict');
    expect(big.generation).not.toBe(read.generation);
    expect((await header(3))['outcomes_gz']).toBeUndefined();
    expectSame((await store.readWindow(tenant, meterId, w(3).start))!.reports, noisy);
  });
});
