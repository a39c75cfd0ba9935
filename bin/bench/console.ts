import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chartBody, specFromParams, specToParams, type ChartSpec } from '../../console/src/features/charts/utils/chart-spec';
import { CONSOLE_DIST, ensureConsoleBuilt } from '../local/console-build';
import { startEmulators } from '../local/emulators';
import { startLocalRuntime } from '../local/runtime';
import { benchLiveStream, type LiveStreamResult } from './console-live-stream';
import { BENCH_TENANT, DEFAULT_SEARCH_DATASET, prepareSearchDataset } from './search-dataset';

/** Targets: the first page's JavaScript ≤ 100 KB gzipped; sign-in → first chart ≤ 1.5× the API's own time. */
export const CONSOLE_TARGETS = { firstPageJavaScriptGzipBytes: 100 * 1024, signInToChartRatio: 1.5 } as const;

export interface ConsoleBenchResult {
  readonly firstPage: { files: string[]; bytes: number; gzipBytes: number; javaScriptGzipBytes: number };
  readonly events: number;
  /** Median over the runs after the first (the first also loads ECharts' chunk, reported apart). */
  readonly consoleMs: number;
  readonly consoleFirstRunMs: number;
  readonly apiMs: number;
  readonly ratio: number;
  readonly runs: number;
  readonly liveStream: LiveStreamResult;
}

const USER = { username: 'bench', password: 'bench-console-password' };
const RUNS = 6;

/** The JavaScript and CSS index.html loads before anything else (lazy chunks excluded), raw and gzipped. */
export async function firstPageBytes(distDir: string = CONSOLE_DIST): Promise<ConsoleBenchResult['firstPage']> {
  const html = await readFile(join(distDir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/console\/([^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
  let bytes = 0;
  let gzipBytes = 0;
  let javaScriptGzipBytes = 0;
  for (const file of files) {
    const content = await readFile(join(distDir, file));
    const gzipped = gzipSync(content, { level: 9 }).byteLength;
    bytes += content.byteLength;
    gzipBytes += gzipped;
    if (file.endsWith('.js')) javaScriptGzipBytes += gzipped;
  }
  return { files, bytes, gzipBytes, javaScriptGzipBytes };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The console section of `npm run bench`: the first page's weight, and the time from pressing
 * *Sign in* to a drawn hourly chart of 30 days over the search bench's 1,000,000 events, against the
 * API's own time for the same two requests (the console's sign-in, `POST /oauth/console_session`, and the chart's search), in the same run.
 */
export async function benchConsole(options: { log?: (line: string) => void; events?: number } = {}): Promise<ConsoleBenchResult> {
  const log = options.log ?? (() => {});
  await ensureConsoleBuilt({ log });
  const firstPage = await firstPageBytes();
  const spec = options.events === undefined ? DEFAULT_SEARCH_DATASET : { ...DEFAULT_SEARCH_DATASET, events: options.events };
  const dataset = await prepareSearchDataset({ dir: resolve(__dirname, '../../.bench/search'), spec, log });
  const dataDir = await mkdtemp(join(tmpdir(), 'uab-bench-console-'));
  await copyFile(dataset.path, join(dataDir, 'search.duckdb'));
  const emulators = await startEmulators({});
  const started: { rt?: Awaited<ReturnType<typeof startLocalRuntime>> | undefined; browser?: Awaited<ReturnType<typeof chromium.launch>> | undefined } = {};
  try {
    const rt = (started.rt = await startLocalRuntime({
      dataDir,
      endpoints: emulators.endpoints,
      billingIntervalMs: 0,
      governanceRefreshMs: 0,
      managementAuth: { rateLimitPerMinute: 1_000_000 },
    }));
    // The data set belongs to its own tenant: give it an organisation, an app and a user to sign in as.
    await rt.stores.apps.createOrgWithApp({ orgId: BENCH_TENANT.org_id, orgName: 'Bench', appId: BENCH_TENANT.app_id, appName: 'Dashboard' });
    await rt.stores.users.create(BENCH_TENANT.org_id, { ...USER, scopes: ['admin'] });
    const base = rt.credentials.management_url;
    const spec: ChartSpec = specFromParams(
      new URLSearchParams({
        metric: 'count',
        interval: '1h',
        time_zone: 'UTC',
        from: new Date(dataset.anchor.getTime() - dataset.spec.days * 86_400_000).toISOString(),
        to: dataset.anchor.toISOString(),
      }),
    );

    const apiOnce = async (): Promise<number> => {
      const at = performance.now();
      // The console's own sign-in: the password grant, and the session that renews its token (one more write).
      const grant = await fetch(`${base}/oauth/console_session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ org_id: BENCH_TENANT.org_id, ...USER, app_id: BENCH_TENANT.app_id }),
      });
      if (grant.status !== 200) throw new Error(`console bench: the sign-in answered ${grant.status}`);
      const { access_token: token } = (await grant.json()) as { access_token: string };
      const query = new URLSearchParams({ from: spec.from, to: spec.to, time_zone: spec.timeZone });
      const answer = await fetch(`${base}/search/~/search/events?${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(chartBody(spec)),
      });
      if (answer.status !== 200) throw new Error(`console bench: the chart's search answered ${answer.status}`);
      await answer.json();
      return performance.now() - at;
    };

    const browser = (started.browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] }));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const chartUrl = `${base}/console/charts/new?${specToParams(spec).toString()}`;
    const consoleOnce = async (): Promise<number> => {
      // Unsigned, the chart's URL leads to sign-in, which returns to it once signed in.
      await page.goto(chartUrl);
      await page.waitForURL(/\/console\/sign-in$/);
      await page.fill('input[name="org_id"]', BENCH_TENANT.org_id);
      await page.fill('input[name="username"]', USER.username);
      await page.fill('input[name="password"]', USER.password);
      // Timed in the page, from the form's submit to the chart's element being in the document
      // (Playwright's own polling would add its intervals to the figure).
      await page.evaluate(`(() => {
        window.__submitAt = undefined;
        window.__chartAt = undefined;
        document.addEventListener('submit', () => { window.__submitAt = performance.now(); }, { capture: true, once: true });
        new MutationObserver((_, observer) => {
          if (document.querySelector('canvas') && window.__submitAt !== undefined) {
            window.__chartAt = performance.now();
            observer.disconnect();
          }
        }).observe(document, { childList: true, subtree: true });
      })()`);
      await page.click('button[type="submit"]');
      await page.getByRole('img', { name: /Event count per 1h/ }).waitFor({ timeout: 120_000 });
      const elapsed = await page.evaluate<number>('window.__chartAt - window.__submitAt');
      await page.click('button:has-text("Sign out")');
      await page.waitForURL(/\/console\/sign-in$/);
      return elapsed;
    };

    const consoleRuns: number[] = [];
    const apiRuns: number[] = [];
    // Alternated, so a drift of the machine's speed falls on both alike.
    for (let run = 0; run < RUNS; run += 1) {
      consoleRuns.push(await consoleOnce());
      apiRuns.push(await apiOnce());
      log(`  run ${run + 1}: console ${Math.round(consoleRuns[run]!)} ms, API ${Math.round(apiRuns[run]!)} ms`);
    }
    const consoleMs = median(consoleRuns.slice(1));
    const apiMs = median(apiRuns.slice(1));
    await started.browser.close();
    started.browser = undefined;
    await rt.stop();
    started.rt = undefined;
    const liveStream = await benchLiveStream(emulators.endpoints, log);
    return {
      firstPage,
      events: dataset.spec.events,
      consoleMs,
      consoleFirstRunMs: consoleRuns[0]!,
      apiMs,
      ratio: consoleMs / apiMs,
      runs: RUNS - 1,
      liveStream,
    };
  } finally {
    await started.browser?.close();
    await started.rt?.stop();
    await emulators.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
