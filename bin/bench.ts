/**
 * `npm run bench`: speed as ratios against baselines measured in the same run (machines here are
 * shared and noisy, so absolute numbers mean little on their own). `npm run bench -- collector` runs
 * one section; results are also written to .bench/results.json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { BILLING_TARGET_RATIO, benchBilling, billingScaleOption } from './bench/billing';
import { benchLambdaBundles } from './bench/lambda-bundles';
import { benchCollectorThroughput } from './bench/collector-throughput';
import { CONSOLE_TARGETS, benchConsole } from './bench/console';
import { LIVE_STREAM_RATE, LIVE_STREAM_TARGETS } from './bench/console-live-stream';
import { E2E_TARGET_EVENTS_PER_SECOND, benchEndToEnd } from './bench/end-to-end';
import { INDEX_WRITE_TARGETS, benchIndexWrites } from './bench/index-writes';
import { SEARCH_TARGETS, benchSearch, searchTable } from './bench/search';
import { OPENSEARCH_SEARCH_TARGET_RATIO, benchSearchOnOpenSearch } from './bench/search-opensearch';
import { ANALYSES_TARGET_MS, benchEventAnalyses } from './bench/event-analyses';
import { EXPORT_TARGET_RATIO, benchExports } from './bench/exports';
import { fmt, trackPeakRss } from './bench/timing';
import { DEFAULT_SEARCH_DATASET } from './bench/search-dataset';
import { benchCohorts } from './bench/cohorts';
import { benchEventVoids } from './bench/event-voids';
import { benchClosedPeriod } from './bench/closed-period';
import { PROVIDER_SYNC_BENCH, benchProviderSync } from './bench/provider-sync';
import { FAIR_SHARE_TARGET_MS, benchFairShare } from './bench/fair-share';
import { HOSTILE_BODIES, HOSTILE_HEAP_GROWTH_TARGET_MB, HOSTILE_ROUNDS, benchHostileMemory } from './bench/hostile-memory';

const sections = [
  'collector',
  'bundle',
  'e2e',
  'writes',
  'search',
  'opensearch',
  'analyses',
  'fairness',
  'memory',
  'cohorts',
  'voids',
  'closed-period',
  'exports',
  'billing',
  'sync',
  'console',
] as const;

/** The value of `--events N`, if given. */
function eventsOption(args: readonly string[]): number | undefined {
  const at = args.indexOf('--events');
  const value = at === -1 ? undefined : Number(args[at + 1]);
  return value !== undefined && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const scale = billingScaleOption(args);
  // The value after --scale is not a section name.
  const wanted = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '--scale' && args[i - 1] !== '--events');
  const run = (name: (typeof sections)[number]) => wanted.length === 0 || wanted.includes(name);
  const results: Record<string, unknown> = { at: new Date().toISOString(), node: process.version };
  const log = (line: string) => console.log(line);

  if (run('collector')) {
    log('\n## Collector handler: 2,000-event batch (validate, normalise, encode; in-memory stream)');
    const r = await benchCollectorThroughput();
    results.collector = r;
    log(`  body ${(r.bodyBytes / 1e6).toFixed(2)} MB → ${r.records} stream records`);
    log(`  JSON.parse alone:  ${fmt(r.jsonParseMs)} ms`);
    log(`  collector handler: ${fmt(r.handlerMs)} ms  (${Math.round(r.eventsPerSecond).toLocaleString('en')} events/s)`);
    log(`  throughput ratio vs JSON.parse: ${fmt(r.ratio)} (target ≥ 0.5)`);
  }
  if (run('bundle')) {
    log('\n## Lambda bundles: size and module init (median of 7 fresh processes), SDK from the runtime vs bundled, with and without source maps');
    const r = await benchLambdaBundles();
    results.bundle = r;
    const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
    for (const [name, b] of Object.entries(r)) {
      log(
        `  ${name.padEnd(11)} runtime SDK ${kb(b.runtimeSdk.bytes).padStart(7)} ${fmt(b.runtimeSdk.initMs).padStart(6)} ms | bundled ${kb(b.bundledSdk.bytes).padStart(7)} ${fmt(b.bundledSdk.initMs).padStart(6)} ms | + source map (${kb(b.bundledSdkWithSourceMap.sourceMapBytes)}) ${fmt(b.bundledSdkWithSourceMap.initMs).padStart(6)} ms`,
      );
    }
    log('  deployed: bundled, no source map (lambdaSourceMaps=true adds them)');
  }
  if (run('e2e')) {
    log('\n## Local end to end: POST → countable in the index (DynamoDB Local, kinesis-local, s3rver, DuckDB)');
    const r = await benchEndToEnd({ log });
    results.e2e = r;
    log(`  ${r.events.toLocaleString('en')} events in ${fmt(r.seconds)} s = ${Math.round(r.eventsPerSecond)} events/s`);
    log(
      `  emulator ceiling: ${Math.round(r.ceilingEventsPerSecond)} events/s (DynamoDB Local ${Math.round(r.dedupClaimsPerSecond)} dedup claims/s; kinesis-local ${fmt(r.kinesisRecordsPerSecond, 1)} records/s × ${r.eventsPerRecord} events)`,
    );
    log(
      `  ratio to the ceiling: ${fmt(r.ratio)} (target ≥ 0.8); target ≥ ${E2E_TARGET_EVENTS_PER_SECOND.toLocaleString('en')} events/s (${r.eventsPerSecond >= E2E_TARGET_EVENTS_PER_SECOND ? 'met' : 'MISSED'})`,
    );
    log(`  dedup write units per million events: ${r.dedupWriteUnitsPerMillionEvents.toLocaleString('en')}`);
  }
  const events = eventsOption(args);
  if (run('writes')) {
    log(`\n## Embedded index writes: ${(events ?? 1_000_000).toLocaleString('en')} events into DuckDB in writes of 20,000, rate as it fills, peak RSS`);
    const r = await benchIndexWrites({ events: events ?? 1_000_000, log });
    results.writes = r;
    log(
      `  median write: first tenth ${Math.round(r.firstEventsPerSecond).toLocaleString('en')} events/s, last tenth ${Math.round(r.lastEventsPerSecond).toLocaleString('en')} events/s (ratio ${fmt(r.lastEventsPerSecond / r.firstEventsPerSecond)}); overall ${Math.round(r.overallEventsPerSecond).toLocaleString('en')} events/s with checkpoints; peak RSS ${r.peakRssMb.toLocaleString('en')} MB`,
    );
    log(`  targets: ≥ ${INDEX_WRITE_TARGETS.eventsPerSecond.toLocaleString('en')} events/s, the last tenth no slower than the first`);
  }
  if (run('search')) {
    log(
      `\n## Search: 8 dashboard queries over ${(events ?? DEFAULT_SEARCH_DATASET.events).toLocaleString('en')} events on DuckDB vs hand-written SQL on the same file`,
    );
    const rss = trackPeakRss();
    const r = await benchSearch({ log, ...(events ? { spec: { ...DEFAULT_SEARCH_DATASET, events } } : {}) });
    const peakRssMb = rss.stop();
    results.search = { ...r, peakRssMb };
    log(
      `  ${r.events.toLocaleString('en')} events, ${r.users.toLocaleString('en')} users; data ${r.reusedData ? 'reused' : 'generated'} (generation takes ${Math.round(r.generatedSeconds)} s); timed part ${Math.round(r.seconds)} s`,
    );
    for (const line of searchTable(r)) log(line);
    log(
      `  targets: ratio ≤ ${SEARCH_TARGETS.ratio}, median ≤ ${SEARCH_TARGETS.medianMs} ms per request, ≤ ${SEARCH_TARGETS.coldMs} ms right after a restart; peak RSS ${peakRssMb.toLocaleString('en')} MB (generation included)`,
    );
  }
  if (run('opensearch')) {
    log(
      `\n## Search on OpenSearch 2.19: the same 8 queries over ${(events ?? DEFAULT_SEARCH_DATASET.events).toLocaleString('en')} events through our API on the adapter vs the same queries written by hand in OpenSearch's DSL, same index; then funnel, retention and cohorts on both backends`,
    );
    const r = await benchSearchOnOpenSearch({ log, ...(events ? { spec: { ...DEFAULT_SEARCH_DATASET, events } } : {}) });
    results.opensearch = r;
    log(`  index ${r.reusedIndex ? 'reused' : 'built'} (indexing took ${Math.round(r.indexedSeconds)} s; node heap ${r.heapMb} MB)`);
    for (const line of searchTable(r, 'by hand')) log(line);
    log(`  target: ratio ≤ ${OPENSEARCH_SEARCH_TARGET_RATIO} (the adapter's overhead)`);
  }
  if (run('analyses')) {
    log(
      `\n## Funnels and retention: a 4-step funnel and a 12-week retention table over ${(events ?? DEFAULT_SEARCH_DATASET.events).toLocaleString('en')} events on DuckDB`,
    );
    const rss = trackPeakRss();
    const r = await benchEventAnalyses({ log, ...(events ? { events } : {}) });
    const peakRssMb = rss.stop();
    results.analyses = { ...r, peakRssMb };
    log(
      `  data ${r.reusedData ? 'reused' : 'generated'} (generation takes ${Math.round(r.generatedSeconds)} s); target: median ≤ ${ANALYSES_TARGET_MS} ms each (${r.timings.every((t) => t.medianMs <= ANALYSES_TARGET_MS) ? 'met' : 'MISSED'}); peak RSS ${peakRssMb.toLocaleString('en')} MB`,
    );
  }
  if (run('fairness')) {
    log(
      `\n## Fair share: one org floods DuckDB with heavy searches (30 at once, 10 let through), another counts, over ${(events ?? DEFAULT_SEARCH_DATASET.events).toLocaleString('en')} events`,
    );
    const r = await benchFairShare({ log, ...(events ? { spec: { ...DEFAULT_SEARCH_DATASET, events } } : {}) });
    results.fairness = r;
    log(
      `  target: the quiet org's count within ${FAIR_SHARE_TARGET_MS} ms under the flood (${r.fairShare.quietMaxMs <= FAIR_SHARE_TARGET_MS ? 'met' : 'MISSED'}: ${r.fairShare.quietMaxMs.toFixed(0)} ms at most, ${r.unshared.quietMaxMs.toFixed(0)} ms without the fair share)`,
    );
  }
  if (run('memory')) {
    log(`\n## Memory through hostile search bodies: ${HOSTILE_ROUNDS} rounds of ${HOSTILE_BODIES.toLocaleString('en')}, each with cache keys of its own`);
    const r = await benchHostileMemory({ log });
    results.memory = r;
    const lastHeapGrowth = (r.heapMbAfterRound.at(-1) ?? 0) - (r.heapMbAfterRound.at(-2) ?? r.startHeapMb);
    log(
      `  ${r.answered} answered, ${r.refused} refused; heap in use after a collection ${r.startHeapMb} → ${r.heapMbAfterRound.join(' → ')} MB, RSS ${r.startRssMb} → ${r.rssMbAfterRound.join(' → ')} MB; target: the last round adds ≤ ${HOSTILE_HEAP_GROWTH_TARGET_MB} MB of heap (${lastHeapGrowth <= HOSTILE_HEAP_GROWTH_TARGET_MB ? 'met' : 'MISSED'}: ${lastHeapGrowth} MB)`,
    );
  }
  if (run('cohorts')) {
    log('\n## Behavioural cohorts: members of three user cohorts over 1,000,000 events (20,000 users) on DuckDB vs one hand-written SQL statement each');
    const r = await benchCohorts({ log });
    results.cohorts = r;
    log('  no target: the cost of computing a behavioural cohort, each refresh, as a ratio to the SQL');
  }
  if (run('voids')) {
    log("\n## Voiding events: a void of up to 100,000 events (the cap) in the search bench's 1,000,000 on DuckDB vs one hand-written UPDATE of the same rows");
    results.voids = await benchEventVoids({ log });
    log('  no target: what a void of the cap costs the engine, as a ratio to the bare UPDATE');
  }
  if (run('closed-period')) {
    log(
      "\n## A closed period at scale: 2,000 subscriptions and 1,000,000 events billed, then a price simulation of every subscription and one customer's signed statement of 100,000 events",
    );
    results.closedPeriod = await benchClosedPeriod({ log });
    log("  no target: what a simulation and a statement cost at the issue's size; the download against paging the same events");
  }
  if (run('exports')) {
    log(
      `\n## Bulk export: the search bench's ${(events ?? DEFAULT_SEARCH_DATASET.events).toLocaleString('en')} events as gzip NDJSON parts in S3 vs bare keyset paging of the same rows`,
    );
    const rss = trackPeakRss();
    const r = await benchExports({ log, ...(events ? { events } : {}) });
    const peakRssMb = rss.stop();
    results.exports = { ...r, peakRssMb };
    log(
      `  export ${fmt(r.exportMs / 1000)} s, paging ${fmt(r.pagingMs / 1000)} s (mean of ${fmt(r.pagingMsBefore / 1000)} s before and ${fmt(r.pagingMsAfter / 1000)} s after), ratio ${fmt(r.ratio)} (target ≤ ${EXPORT_TARGET_RATIO}); peak RSS ${peakRssMb.toLocaleString('en')} MB`,
    );
  }
  if (run('billing')) {
    const fileBacked = args.includes('--file-backed');
    log(
      `\n## Billing run: one full run of a month's hourly windows vs the bare aggregation queries it needs (scale ${scale}; emulators ${fileBacked ? 'on disk, as npm start runs them' : 'in memory'})`,
    );
    const r = await benchBilling({ scale, log, fileBacked });
    results.billing = { ...r, emulators: fileBacked ? 'file-backed' : 'in-memory' };
    log(
      `  ${r.companies.toLocaleString('en')} subscriptions × ${r.meters} meters, ${r.events.toLocaleString('en')} events, ${r.windows} windows, ${r.reports.toLocaleString('en')} reports`,
    );
    log(
      `  full run ${fmt(r.runMs / 1000)} s, bare queries ${fmt(r.queryMs / 1000)} s (mean of ${fmt(r.queryMsBefore / 1000)} s before and ${fmt(r.queryMsAfter / 1000)} s after the run), ratio ${fmt(r.ratio)} (target ≤ ${BILLING_TARGET_RATIO})`,
    );
  }

  if (run('sync')) {
    log(
      `\n## Sync in and reconcile out: ${PROVIDER_SYNC_BENCH.customers.toLocaleString('en')} Stripe customers and subscriptions (fake Stripe, emulators in memory) brought in by one sync vs the same pages read with the SDK alone; then every subscription billed and reconciled`,
    );
    const r = await benchProviderSync({ log });
    results.sync = r;
    log(
      `  sync ${fmt(r.syncMs / 1000)} s (${r.syncRequests} requests) vs listing ${fmt(r.listingMs / 1000)} s (${r.listingRequests} requests): ratio ${fmt(r.ratio)}; searchable after ${fmt(r.searchableMs / 1000)} s; reconciliation ${fmt(r.reconcileMs / r.reconciled, 3)} ms and ${fmt(r.reconcileRequests / r.reconciled, 3)} requests a subscription`,
    );
  }

  if (run('console')) {
    log(
      `\n## Console: first page weight; sign-in → a drawn hourly chart of 30 days over ${(events ?? DEFAULT_SEARCH_DATASET.events).toLocaleString('en')} events vs the API's own time for the same requests (Chromium)`,
    );
    const rss = trackPeakRss();
    const r = await benchConsole({ log, ...(events ? { events } : {}) });
    const peakRssMb = rss.stop();
    results.console = { ...r, peakRssMb };
    log(`  peak RSS ${peakRssMb.toLocaleString('en')} MB (this process, which runs the local runtime)`);
    log(
      `  first page: ${r.firstPage.files.join(', ')}: ${Math.round(r.firstPage.bytes / 1024)} KB, ${Math.round(r.firstPage.gzipBytes / 1024)} KB gzipped, of which JavaScript ${fmt(r.firstPage.javaScriptGzipBytes / 1024, 1)} KB (target ≤ ${CONSOLE_TARGETS.firstPageJavaScriptGzipBytes / 1024} KB: ${r.firstPage.javaScriptGzipBytes <= CONSOLE_TARGETS.firstPageJavaScriptGzipBytes ? 'met' : 'MISSED'})`,
    );
    const live = r.liveStream;
    log(
      `  live stream at ${LIVE_STREAM_RATE} events/s: ${fmt(live.framesPerSecond, 0)} frames/s (target ≥ ${LIVE_STREAM_TARGETS.minFramesPerSecond}), longest task ${fmt(live.longestTaskMs, 0)} ms (target ≤ ${LIVE_STREAM_TARGETS.maxLongTaskMs}); the last event shown ${fmt(live.streamLagMs, 0)} ms after its 201, found by the API after ${fmt(live.apiLagMs, 0)} ms`,
    );
    log(
      `  sign-in → chart: console ${fmt(r.consoleMs)} ms (first run, loading ECharts: ${fmt(r.consoleFirstRunMs)} ms), API ${fmt(r.apiMs)} ms, ratio ${fmt(r.ratio)} (target ≤ ${CONSOLE_TARGETS.signInToChartRatio}), median of ${r.runs} runs`,
    );
  }

  const out = resolve(__dirname, '../.bench/results.json');
  await mkdir(resolve(out, '..'), { recursive: true });
  await writeFile(out, JSON.stringify(results, null, 2));
  log(`\nresults written to ${out}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
