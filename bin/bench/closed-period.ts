import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBilling } from '../../functions/billing/run/billing-run';
import { parseSearchRequest } from '../../functions/search/dsl';
import { profileDocument } from '../../functions/search/index-documents';
import type { IndexDocument, TenantScope } from '../../functions/search/port';
import type { SortValue } from '../../schemas/search-tree';
import type { CustomerStatement } from '../../schemas/billing/customer-statement';
import type { PriceSimulation } from '../../schemas/billing/price-simulation';
import { startEmulators } from '../local/emulators';
import { startLocalRuntime } from '../local/runtime';
import { BENCH_CHANNEL, BENCH_WEBHOOK_SECRET, eventDocument, indexAll, startReceiver } from './billing-fixtures';
import { median, timeMs } from './timing';

/** The size the issue names: 1,000,000 events and 2,000 subscriptions, one customer holding 100,000. */
export const CLOSED_PERIOD_BENCH = { companies: 2_000, events: 1_000_000, customerEvents: 100_000, days: 30 } as const;

export interface ClosedPeriodBenchResult {
  readonly companies: number;
  readonly events: number;
  readonly runMs: number;
  /** POST /~/billing/simulations over the period, every subscription of the meter, under a draft graduated price. */
  readonly simulationMs: number;
  readonly simulatedSubscriptions: number;
  /** GET …/statement the first time (issues version 1) and again (nothing changed: compared, not issued). */
  readonly statementFirstMs: number;
  readonly statementAgainMs: number;
  /** Every page of the customer's event list downloaded. */
  readonly downloadMs: number;
  readonly statementEvents: number;
  /** The same events read through the search API in time order, a page of 1,000 at a time: the floor of any listing. */
  readonly listingMs: number;
}

const HOUR = 3_600_000;
const ROUNDS = 3;

/**
 * `npm run bench -- closed-period`: a billing period that has ended, at the issue's size (2,000
 * subscriptions, 1,000,000 events over 30 days, one meter of every call at a per-unit price, one
 * customer with 100,000 of them), billed by one full run; then what issue 55 asks to measure on it:
 * a price simulation of every subscription under a draft graduated price, and the customer's signed
 * statement and its 100,000-event download, against reading the same events through the search API.
 */
export async function benchClosedPeriod(options: { log?: (line: string) => void } = {}): Promise<ClosedPeriodBenchResult> {
  const log = options.log ?? (() => {});
  const { companies, events, customerEvents } = CLOSED_PERIOD_BENCH;
  const dataDir = await mkdtemp(join(tmpdir(), 'uab-bench-closed-'));
  const emulators = await startEmulators({});
  const started: { rt?: Awaited<ReturnType<typeof startLocalRuntime>>; receiver?: Awaited<ReturnType<typeof startReceiver>> } = {};
  try {
    const rt = (started.rt = await startLocalRuntime({ dataDir, billingIntervalMs: 0, endpoints: emulators.endpoints }));
    const receiver = (started.receiver = await startReceiver());
    const c = rt.credentials;
    const scope: TenantScope = { org_id: c.org_id, app_id: c.app_id };
    const call = async <T>(method: string, path: string, body?: unknown, token = c.management_token): Promise<T> => {
      const response = await fetch(`${c.management_url}${path}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await response.json()) as T;
      if (response.status >= 300) throw new Error(`closed-period bench: ${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
      return json;
    };

    // The period: from a day before the events to the last closed hour, ended before "now".
    const end = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
    const start = end - CLOSED_PERIOD_BENCH.days * 24 * HOUR;
    const period = { current_period_start: new Date(start - 24 * HOUR).toISOString(), current_period_end: new Date(end).toISOString() };
    const plan = await call<{ id: string }>('POST', '/~/billing/catalog/plans', { name: 'bench calls' });
    const price = (body: Record<string, unknown>) => call<{ id: string }>('POST', '/~/billing/catalog/prices', { plan_id: plan.id, currency: 'USD', ...body });
    await price({ name: 'per call', pricing_model: 'per_unit', price_in_decimal: '0.001' });
    const draft = await price({
      name: 'graduated draft',
      pricing_model: 'tiered_graduated',
      status: 'inactive',
      tiers: [
        { up_to: 1_000, unit_price_in_decimal: '0' },
        { up_to: 'inf', unit_price_in_decimal: '0.0008', flat_price_in_decimal: '5' },
      ],
    });
    const subscriptions: IndexDocument[] = [];
    for (let i = 0; i < companies; i += 1) {
      const id = `sub-${String(i).padStart(6, '0')}`;
      const fields = { subscription_id: id, company_id: `co-${i}`, status: 'active', items: [{ plan_id: plan.id }], ...period };
      subscriptions.push(profileDocument(scope, 'subscriptions', id, fields, 1, new Date().toISOString()));
    }
    await indexAll(rt.index, subscriptions);
    // Every tenth event is co-0's (the customer of the statement); the rest spread over the others.
    const step = (end - start) / events;
    let chunk: IndexDocument[] = [];
    for (let n = 0; n < events; n += 1) {
      const company = n % 10 === 0 ? 0 : 1 + ((n * 2_654_435_761) % (companies - 1));
      const fields = {
        company_id: `co-${company}`,
        transaction_id: `t-${n}`,
        ...(n % 3 === 0 ? { subscription_id: `sub-${String(company).padStart(6, '0')}` } : {}),
      };
      chunk.push(eventDocument(scope, `e-${n}`, new Date(start + Math.floor(n * step)), fields, ['GET', 'POST'][n % 2]!, 200));
      if (chunk.length === 10_000) {
        await indexAll(rt.index, chunk);
        chunk = [];
      }
    }
    await indexAll(rt.index, chunk);
    const meter = await call<{ _id: string }>('POST', '/~/billing/meters', {
      name: 'calls',
      slug: 'calls',
      es_query: { query: { match_all: {} } },
      billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: [BENCH_CHANNEL], custom_plan: { plan_id: plan.id } } } },
    });
    log(
      `  ${companies.toLocaleString('en')} subscriptions, ${events.toLocaleString('en')} events (${customerEvents.toLocaleString('en')} of co-0) in a period that ended`,
    );

    const runMs = await timeMs(async () => {
      const summary = await runBilling({
        now: new Date(),
        deps: {
          ...rt.billingDeps,
          tenants: async () => [{ orgId: scope.org_id, appId: scope.app_id }],
          channels: async () =>
            new Map([
              [
                BENCH_CHANNEL,
                {
                  id: BENCH_CHANNEL,
                  name: BENCH_CHANNEL,
                  url: `${receiver.url}/channels/${BENCH_CHANNEL}`,
                  status: 'active' as const,
                  headers: {},
                  secrets: [BENCH_WEBHOOK_SECRET],
                },
              ],
            ]),
          webhookOptions: { allowPrivateTargets: true },
        },
      });
      if (summary.errors.length > 0 || !summary.complete) throw new Error(`closed-period bench: the run failed: ${JSON.stringify(summary.errors.slice(0, 3))}`);
    });
    log(`  billing run: ${(runMs / 1000).toFixed(1)} s`);

    // The simulation: every subscription the meter bills, its period priced under the draft.
    let simulated = 0;
    const simulationTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      simulationTimes.push(
        await timeMs(async () => {
          const answer = await call<PriceSimulation>('POST', '/~/billing/simulations', {
            billing_meter_id: meter._id,
            price_id: draft.id,
            from: period.current_period_start,
            to: new Date(end + HOUR).toISOString(),
          });
          simulated = answer.subscriptions.length;
          if (answer.totals.usage !== events) throw new Error(`closed-period bench: the simulation priced ${answer.totals.usage} of ${events} calls`);
        }),
      );
    }
    log(`  simulation of ${simulated.toLocaleString('en')} subscriptions: ${median(simulationTimes).toFixed(0)} ms (median of ${ROUNDS})`);

    // The statement: first issued, then asked again unchanged; then its events downloaded.
    const minted = await call<{ token: string }>('POST', '/~/customer_tokens', { company_id: 'co-0' });
    const statementPath = `/public/customers/${encodeURIComponent(minted.token)}/statement?subscription_id=sub-000000&period_start=${encodeURIComponent(period.current_period_start)}`;
    let statement: CustomerStatement | undefined;
    const statementFirstMs = await timeMs(async () => {
      statement = await call<CustomerStatement>('GET', statementPath, undefined, '');
    });
    const againTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1)
      againTimes.push(
        await timeMs(async () => {
          const again = await call<CustomerStatement>('GET', statementPath, undefined, '');
          if (again.version !== 1) throw new Error(`closed-period bench: asked again unchanged, the statement became version ${again.version}`);
        }),
      );
    const line = statement!.meters[0]!;
    if (line.event_count !== customerEvents || line.usage !== customerEvents || line.reported_usage !== customerEvents)
      throw new Error(`closed-period bench: the statement lists ${line.event_count} events, usage ${line.usage}, reported ${line.reported_usage}`);
    const downloadTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const hash = createHash('sha256');
      downloadTimes.push(
        await timeMs(async () => {
          let after: string | undefined;
          do {
            const page: { lines: string; next?: string } = await call(
              'GET',
              `${statementPath.replace('/statement?', '/statement/events?')}&billing_meter_id=${meter._id}${after ? `&after=${after}` : ''}`,
              undefined,
              '',
            );
            hash.update(page.lines);
            after = page.next;
          } while (after);
        }),
      );
      if (hash.digest('hex') !== line.events_digest) throw new Error('closed-period bench: the downloaded list is not the one the statement signed');
    }
    // The floor: the same events through the search API, in time order, a page of 1,000 at a time.
    const listingTimes: number[] = [];
    const context = {
      scope,
      kind: 'events' as const,
      range: { from: new Date(period.current_period_start), to: new Date(end) },
      timeZone: 'UTC',
      now: new Date(),
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      let read = 0;
      listingTimes.push(
        await timeMs(async () => {
          let cursor: SortValue[] | undefined;
          for (;;) {
            const request = parseSearchRequest(
              {
                query: { term: { company_id: 'co-0' } },
                size: 1000,
                sort: [{ time: 'asc' }],
                track_total_hits: false,
                _source: { includes: ['transaction_id', 'request.uri'] },
              },
              'events',
            );
            const page = await rt.index.search(context, cursor ? { ...request, search_after: cursor } : request);
            read += page.hits.hits.length;
            if (page.hits.hits.length < 1000) break;
            cursor = page.hits.hits.at(-1)!.sort;
          }
        }),
      );
      if (read !== customerEvents) throw new Error(`closed-period bench: the listing read ${read} events`);
    }
    const result: ClosedPeriodBenchResult = {
      companies,
      events,
      runMs,
      simulationMs: median(simulationTimes),
      simulatedSubscriptions: simulated,
      statementFirstMs,
      statementAgainMs: median(againTimes),
      downloadMs: median(downloadTimes),
      statementEvents: line.event_count,
      listingMs: median(listingTimes),
    };
    log(
      `  statement of ${line.event_count.toLocaleString('en')} events: issued in ${statementFirstMs.toFixed(0)} ms, asked again ${result.statementAgainMs.toFixed(0)} ms; download ${result.downloadMs.toFixed(0)} ms; the same events paged through the search API ${result.listingMs.toFixed(0)} ms`,
    );
    return result;
  } finally {
    await started.receiver?.stop();
    await started.rt?.stop();
    await emulators.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
