import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBilling, type BillingRunSummary } from '../../functions/billing/run/billing-run';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { runMeterOf, type RunMeter } from '../../functions/billing/run/run-meter';
import { RunStateStore } from '../../functions/billing/run/run-state-store';
import { busyWindows, windowUsage } from '../../functions/billing/run/usage-query';
import { profileDocument } from '../../functions/search/index-documents';
import type { IndexDocument, TenantScope } from '../../functions/search/port';
import { startEmulators } from '../local/emulators';
import { startLocalRuntime } from '../local/runtime';
import { timeMs } from './timing';
import { benchUsagePage, countingSearches, type UsagePageTiming } from './customer-usage-page';
import { BENCH_CHANNEL, BENCH_WEBHOOK_SECRET, eventDocument, indexAll, startReceiver } from './billing-fixtures';

export const BILLING_TARGET_RATIO = 2;

/** The issue's full size; `--scale` multiplies companies and events (windows and meters stay). */
export const FULL_BILLING_BENCH = { companies: 2_000, meters: 5, events: 1_000_000, days: 30 } as const;

/**
 * `--scale 0.25` / `--scale=0.25`: the billing section at that fraction of its companies and events
 * (windows and meters stay), for machines where the full size does not finish in reasonable time.
 */
export function billingScaleOption(args: readonly string[]): number {
  const at = args.findIndex((a) => a === '--scale' || a.startsWith('--scale='));
  if (at < 0) return 1;
  const text = args[at]!.includes('=') ? args[at]!.slice('--scale='.length) : (args[at + 1] ?? '');
  const scale = Number(text);
  if (!(scale > 0 && scale <= 1)) throw new Error(`--scale must be a number in (0, 1], got "${text}"`);
  return scale;
}

export interface BillingBenchResult {
  scale: number;
  companies: number;
  meters: number;
  events: number;
  windows: number;
  reports: number;
  delivered: number;
  /** The full run: every meter's hourly windows of the month, evaluated, committed, delivered. */
  runMs: number;
  /**
   * The bare aggregation queries the run needs (per meter: the busy-window histogram and one grouped
   * query per busy window): the mean of a measurement before the run and one after it.
   */
  queryMs: number;
  queryMsBefore: number;
  queryMsAfter: number;
  ratio: number;
  generatedSeconds: number;
  /** One customer's usage page load after the run (customer-usage-page.ts). */
  usagePage: UsagePageTiming;
}

const HOUR = 3_600_000;
const CHANNEL = BENCH_CHANNEL;
const SECRET = BENCH_WEBHOOK_SECRET;

/**
 * The billing section of `npm run bench`: companies with one active subscription each, five
 * webhook meters (different filters over the same events), events spread over a month; one full
 * billing run over all hourly windows against the bare aggregation queries it needs, timed in the
 * same process on the same emulators. The webhook receiver runs in a child process, as a real one runs
 * elsewhere (it still shares the machine's two cores); after the run its per-subscription totals must
 * equal the run's period totals (committed with the reports), so the figure is for an exact run.
 * Data is generated into a fresh runtime every time (indexing is not part of either timing).
 */
export async function benchBilling(
  options: {
    scale?: number;
    log?: (line: string) => void;
    /** Run DynamoDB Local on its SQLite file (and kinesis-local, s3rver on disk) as `npm start` does, instead of in memory. */
    fileBacked?: boolean;
  } = {},
): Promise<BillingBenchResult> {
  const scale = options.scale ?? 1;
  const log = options.log ?? (() => {});
  const companies = Math.max(1, Math.round(FULL_BILLING_BENCH.companies * scale));
  const events = Math.max(1, Math.round(FULL_BILLING_BENCH.events * scale));
  const dataDir = await mkdtemp(join(tmpdir(), 'uab-bench-billing-'));
  // The bench's data is generated for it and deleted after, so by default the AWS emulators keep it in
  // memory (as the integration tests run them); --file-backed runs them on disk as `npm start` does.
  // The search index is a DuckDB file either way, as in local mode.
  const emulators = await startEmulators(options.fileBacked ? { dataDir: join(dataDir, 'emulators') } : {});
  // What has started, stopped in `finally` whichever step failed.
  const started: { rt?: Awaited<ReturnType<typeof startLocalRuntime>>; receiver?: Awaited<ReturnType<typeof startReceiver>> } = {};
  try {
    let counted: ReturnType<typeof countingSearches> | undefined;
    const rt = (started.rt = await startLocalRuntime({
      dataDir,
      billingIntervalMs: 0,
      endpoints: emulators.endpoints,
      wrapSearchIndex: (index) => (counted = countingSearches(index)).index,
    }));
    const receiver = (started.receiver = await startReceiver());
    const c = rt.credentials;
    const scope: TenantScope = { org_id: c.org_id, app_id: c.app_id };
    const management = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${c.management_url}${path}`, {
        method,
        headers: { authorization: `Bearer ${c.management_token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = (await response.json()) as Record<string, unknown>;
      if (response.status >= 300) throw new Error(`billing bench: ${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
      return json;
    };

    // Events lie in the 30 days before the last closed hour (settled long before "now").
    const end = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
    const start = end - FULL_BILLING_BENCH.days * 24 * HOUR;
    const generatedStarted = process.hrtime.bigint();
    const plan = await management('POST', '/~/billing/catalog/plans', { name: 'bench calls' });
    const planId = String(plan['id'] ?? plan['_id']);
    await management('POST', '/~/billing/catalog/prices', {
      name: 'per call',
      plan_id: planId,
      pricing_model: 'per_unit',
      currency: 'USD',
      price_in_decimal: '0.001',
    });
    const periodStart = new Date(start - 24 * HOUR).toISOString();
    const periodEnd = new Date(end + 31 * 24 * HOUR).toISOString();
    const subscriptions: IndexDocument[] = [];
    for (let i = 0; i < companies; i += 1) {
      const id = `sub-${String(i).padStart(6, '0')}`;
      subscriptions.push(
        profileDocument(
          scope,
          'subscriptions',
          id,
          {
            subscription_id: id,
            company_id: `co-${i}`,
            status: 'active',
            items: [{ plan_id: planId }],
            current_period_start: periodStart,
            current_period_end: periodEnd,
          },
          1,
          new Date().toISOString(),
        ),
      );
    }
    await indexAll(rt.index, subscriptions);
    // Deterministic spread: event n at an even step through the month, company by a multiplicative hash.
    const step = (end - start) / events;
    const verbs = ['GET', 'POST', 'PUT', 'DELETE'];
    let chunk: IndexDocument[] = [];
    for (let n = 0; n < events; n += 1) {
      const time = new Date(start + Math.floor(n * step));
      const company = (n * 2_654_435_761) % companies;
      const status = n % 17 === 0 ? 500 : n % 5 === 0 ? 404 : 200;
      chunk.push(
        eventDocument(
          scope,
          `e-${n}`,
          time,
          {
            company_id: `co-${company}`,
            ...(n % 3 === 0 ? { subscription_id: `sub-${String(company).padStart(6, '0')}` } : {}),
            ...(n % 11 === 0 ? { weight: 2 } : {}),
          },
          verbs[n % 4]!,
          status,
        ),
      );
      if (chunk.length === 10_000) {
        await indexAll(rt.index, chunk);
        chunk = [];
        if ((n + 1) % 100_000 === 0) log(`  indexed ${(n + 1).toLocaleString('en')} / ${events.toLocaleString('en')} events`);
      }
    }
    await indexAll(rt.index, chunk);

    const queries: Record<string, unknown>[] = [
      { query: { match_all: {} } },
      { query: { bool: { filter: [{ term: { 'request.verb': 'GET' } }] } } },
      { query: { bool: { filter: [{ term: { 'request.verb': 'POST' } }] } } },
      { query: { bool: { filter: [{ range: { 'response.status': { gte: 400 } } }] } } },
      { query: { bool: { filter: [{ range: { 'response.status': { lt: 400 } } }] } } },
    ];
    const meters: RunMeter[] = [];
    for (const [i, es_query] of queries.entries()) {
      const created = await management('POST', '/~/billing/meters', {
        name: `bench ${i}`,
        slug: `bench-${i}`,
        es_query,
        billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: [CHANNEL], custom_plan: { plan_id: planId } } } },
      });
      const meter = runMeterOf(created);
      if ('error' in meter) throw new Error(`billing bench: meter ${i}: ${meter.error}`);
      meters.push(meter);
    }
    const generatedSeconds = Number(process.hrtime.bigint() - generatedStarted) / 1e9;
    log(
      `  ${companies.toLocaleString('en')} subscriptions, ${meters.length} meters, ${events.toLocaleString('en')} events over ${FULL_BILLING_BENCH.days} days (scale ${scale}); generated in ${Math.round(generatedSeconds)} s`,
    );

    // The bare queries before the run (they also warm DuckDB's cache for the run, which favours the
    // run) and again after it: this machine's speed drifts by a fifth over minutes (shared hosts), so
    // the baseline is the mean of both, taken around the run rather than only before it.
    const now = new Date();
    const range = { from: new Date(start - 24 * HOUR), to: new Date(end) };
    let windows = 0;
    const bareQueries = () =>
      timeMs(async () => {
        windows = 0;
        const perMeter: number[] = [];
        for (const meter of meters) {
          const meterStarted = Date.now();
          const busy = await busyWindows(rt.index, scope, meter, range, now);
          windows += busy.length;
          for (const windowStart of busy)
            await windowUsage(rt.index, scope, meter, { start: windowStart, end: new Date(windowStart.getTime() + meter.periodMs) }, now);
          perMeter.push(Date.now() - meterStarted);
        }
        log(`  bare queries per meter: ${perMeter.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`);
      });
    const queryMsBefore = await bareQueries();
    log(`  bare aggregation queries (before the run): ${windows} windows in ${Math.round(queryMsBefore)} ms`);

    // What the run asks of DynamoDB (requests and request bytes per operation): its share of the machine.
    const dynamoRequests = new Map<string, { requests: number; bytes: number }>();
    let counting = true;
    rt.clients.dynamodb.middlewareStack.add(
      (next, context) => async (args) => {
        const body = (args.request as { body?: unknown }).body;
        if (counting) {
          const entry = dynamoRequests.get(String(context.commandName)) ?? { requests: 0, bytes: 0 };
          entry.requests += 1;
          entry.bytes += typeof body === 'string' ? Buffer.byteLength(body) : body instanceof Uint8Array ? body.byteLength : 0;
          dynamoRequests.set(String(context.commandName), entry);
        }
        return next(args);
      },
      { step: 'finalizeRequest', name: 'billingBenchCounter' },
    );
    let done = 0;
    let lastLog = Date.now();
    let meterStarted = Date.now();
    const runPerMeter: number[] = [];
    let summary: BillingRunSummary | undefined;
    const runMs = await timeMs(async () => {
      summary = await runBilling({
        now,
        deps: {
          ...rt.billingDeps,
          tenants: async () => [{ orgId: scope.org_id, appId: scope.app_id }],
          channels: async () =>
            new Map([
              [CHANNEL, { id: CHANNEL, name: CHANNEL, url: `${receiver.url}/channels/${CHANNEL}`, status: 'active' as const, headers: {}, secrets: [SECRET] }],
            ]),
          // The receiver is on localhost: the setting of local mode (WEBHOOK_ALLOW_PRIVATE_TARGETS).
          webhookOptions: { allowPrivateTargets: true },
        },
        onProgress: (p) => {
          if (p.phase === 'meter-done') {
            runPerMeter.push(Date.now() - meterStarted);
            meterStarted = Date.now();
          }
          if (p.phase !== 'window') return;
          done += 1;
          if (Date.now() - lastLog >= 5_000) {
            lastLog = Date.now();
            log(`  run: ${done} / ${windows} windows`);
          }
        },
      });
    });
    counting = false;
    log(`  run per meter: ${runPerMeter.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`);
    log(
      `  DynamoDB requests of the run: ${[...dynamoRequests].map(([name, { requests, bytes }]) => `${name} ${requests.toLocaleString('en')} (${(bytes / 1e6).toFixed(1)} MB)`).join(', ')}`,
    );
    const s = summary!;
    if (s.errors.length > 0 || !s.complete) throw new Error(`billing bench: the run did not finish cleanly: ${JSON.stringify(s.errors.slice(0, 3))}`);
    if (s.windowsEvaluated !== windows) throw new Error(`billing bench: the run evaluated ${s.windowsEvaluated} windows, the bare queries found ${windows}`);
    if (s.retrying + s.failed > 0) throw new Error(`billing bench: ${s.retrying + s.failed} reports were not delivered`);
    log(
      `  run: ${s.windowsEvaluated} windows, ${s.reportsWritten.toLocaleString('en')} reports, ${s.delivered.toLocaleString('en')} delivered in ${Math.round(runMs)} ms (its own query time ${s.queryMs} ms)`,
    );
    const received = await receiver.totals();
    if (received.events !== s.delivered || received.duplicates > 0 || received.refused > 0) {
      throw new Error(
        `billing bench: the receiver took ${received.events} events (${received.duplicates} duplicates, ${received.refused} refused); the run delivered ${s.delivered}`,
      );
    }
    const expected = await reportedTotals(rt.clients.documents, rt.names.tables.billing, scope, meters);
    const mismatch = [...new Set([...Object.keys(expected), ...Object.keys(received.totals)])].find(
      (id) => (expected[id] ?? 0n).toString() !== (received.totals[id] ?? '0'),
    );
    if (mismatch !== undefined)
      throw new Error(`billing bench: subscription ${mismatch} received ${received.totals[mismatch] ?? 0}, its reports total ${expected[mismatch] ?? 0n}`);
    log(`  receiver: ${received.events.toLocaleString('en')} events; every subscription's total equals the run's period totals of its reports`);
    const queryMsAfter = await bareQueries();
    log(`  bare aggregation queries (after the run): ${windows} windows in ${Math.round(queryMsAfter)} ms`);
    const queryMs = (queryMsBefore + queryMsAfter) / 2;
    // The DynamoDB counter again, now for the page loads (the difference around one load is its share).
    counting = true;
    const countAll = () => [...dynamoRequests.values()].reduce((sum, entry) => sum + entry.requests, 0);
    const usagePage = await benchUsagePage({
      managementUrl: c.management_url,
      managementToken: c.management_token,
      companyId: 'co-0',
      meters,
      period: range,
      searches: () => counted?.searches() ?? 0,
      dynamoRequests: countAll,
      log,
    });
    counting = false;
    return {
      scale,
      companies,
      meters: meters.length,
      events,
      windows,
      reports: s.reportsWritten,
      delivered: s.delivered,
      runMs,
      queryMs,
      queryMsBefore,
      queryMsAfter,
      ratio: runMs / queryMs,
      generatedSeconds,
      usagePage,
    };
  } finally {
    await started.receiver?.stop();
    await started.rt?.stop();
    await emulators.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Per subscription, its period-to-date totals (the sum of its reports' meter_usage, which the run keeps
 * with its cursor and commits with every window) added over the meters: what the receiver must hold.
 * The bench's subscriptions have one period spanning the whole month.
 */
async function reportedTotals(
  documents: DynamoDBDocumentClient,
  table: string,
  scope: TenantScope,
  meters: readonly RunMeter[],
): Promise<Record<string, bigint>> {
  const state = new RunStateStore(documents, table);
  const totals: Record<string, bigint> = {};
  for (const meter of meters) {
    const cursor = await state.readCursor({ orgId: scope.org_id, appId: scope.app_id }, meter.id);
    for (const [key, total] of cursor?.totals ?? []) {
      const subscription = key.slice('S:'.length);
      if (key.startsWith('S:')) totals[subscription] = (totals[subscription] ?? 0n) + BigInt(total.usage);
    }
  }
  return totals;
}
