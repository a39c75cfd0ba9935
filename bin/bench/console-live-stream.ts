import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startLocalRuntime } from '../local/runtime';
import { realisticEvent } from './fixtures';

export const LIVE_STREAM_RATE = 1_000;
/** The "without freezing the page": frames keep coming and no task holds the page this long. */
export const LIVE_STREAM_TARGETS = { minFramesPerSecond: 30, maxLongTaskMs: 200 } as const;

export interface LiveStreamResult {
  readonly sentEvents: number;
  readonly seconds: number;
  /** Frames the page painted per second while the events arrived. */
  readonly framesPerSecond: number;
  /** The longest main-thread task (PerformanceObserver longtask), 0 when none passed 50 ms. */
  readonly longestTaskMs: number;
  /** From the last batch's 201 until the API finds its newest event, and until the stream shows it. */
  readonly apiLagMs: number;
  readonly streamLagMs: number;
}

/**
 * The live event stream while the collector takes 1,000 events a second for 10 seconds (batches of
 * 100 every 100 ms), on the emulators in memory: how smoothly the page keeps painting, and how far
 * behind the API and the page are once the last batch is in. Indexing runs at the local pipeline's
 * pace (about 500 events/s here), so both lags are mostly the pipeline's; the stream adds its 2 s refresh.
 */
export async function benchLiveStream(
  endpoints: Parameters<typeof startLocalRuntime>[0]['endpoints'],
  log: (line: string) => void = () => {},
): Promise<LiveStreamResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'uab-bench-live-'));
  const started: { rt?: Awaited<ReturnType<typeof startLocalRuntime>>; browser?: Awaited<ReturnType<typeof chromium.launch>> } = {};
  try {
    const rt = (started.rt = await startLocalRuntime({
      dataDir,
      ...(endpoints ? { endpoints } : {}),
      prefix: 'live-',
      billingIntervalMs: 0,
      governanceRefreshMs: 0,
      managementAuth: { rateLimitPerMinute: 1_000_000 },
    }));
    const c = rt.credentials;
    const browser = (started.browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] }));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${c.management_url}/console/events`);
    await page.fill('input[name="username"]', c.admin_username!);
    await page.fill('input[name="password"]', c.admin_password!);
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/console\/events$/);
    await page.evaluate(`(() => {
      window.__frames = 0; window.__longest = 0;
      const tick = () => { window.__frames += 1; requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
      new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration); }).observe({ type: 'longtask', buffered: false });
    })()`);
    const framesBefore = await page.evaluate<number>('window.__frames');
    const headers = { 'content-type': 'application/json', 'x-service-application-id': c.collector_application_id };
    const seconds = 10;
    const perBatch = 100;
    const startedAt = Date.now();
    let sent = 0;
    let lastUri = '';
    const sends: Promise<void>[] = [];
    for (let tick = 0; tick < (seconds * LIVE_STREAM_RATE) / perBatch; tick += 1) {
      const due = startedAt + tick * 100;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      const at = new Date();
      const batch = Array.from({ length: perBatch }, (_, i) => realisticEvent(sent + i, at));
      // The batch's last event has a route of its own and the batch's latest time, so it is the newest
      // (the stream's first row once indexed).
      lastUri = `https://api.example.com/live/last-${tick}`;
      const marker = batch[perBatch - 1]!;
      marker['request'] = { ...(marker['request'] as Record<string, unknown>), uri: lastUri, time: new Date(at.getTime() + 1).toISOString() };
      marker['response'] = { ...(marker['response'] as Record<string, unknown>), time: new Date(at.getTime() + 21).toISOString() };
      sent += perBatch;
      sends.push(
        fetch(`${c.collector_url}/v1/events/batch`, { method: 'POST', headers, body: JSON.stringify(batch) }).then(async (res) => {
          if (res.status !== 201) throw new Error(`live stream bench: the collector answered ${res.status}`);
        }),
      );
    }
    await Promise.all(sends);
    const lastSentAt = Date.now();
    const elapsedSeconds = (lastSentAt - startedAt) / 1000;
    const framesPerSecond = ((await page.evaluate<number>('window.__frames')) - framesBefore) / elapsedSeconds;
    const lastRoute = new URL(lastUri).pathname;
    // The API's lag: polled directly; the page's: its stream showing the same event.
    const apiSeen = (async () => {
      for (;;) {
        const answer = await fetch(`${c.management_url}/search/~/count/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${c.management_token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: { term: { 'request.route.raw': lastRoute } } }),
        });
        if (((await answer.json()) as { count: number }).count > 0) return Date.now() - lastSentAt;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const streamSeen = page
      // The last tick's route is contained in no other link's name (earlier ticks are smaller numbers).
      .getByRole('link', { name: lastRoute })
      .waitFor({ timeout: 120_000 })
      .then(() => Date.now() - lastSentAt);
    const [apiLagMs, streamLagMs] = await Promise.all([apiSeen, streamSeen]);
    const longestTaskMs = await page.evaluate<number>('window.__longest');
    log(
      `  live stream: ${sent} events in ${elapsedSeconds.toFixed(1)} s; ${framesPerSecond.toFixed(0)} frames/s, longest task ${Math.round(longestTaskMs)} ms; last event found by the API after ${apiLagMs} ms, shown by the stream after ${streamLagMs} ms`,
    );
    return { sentEvents: sent, seconds: elapsedSeconds, framesPerSecond, longestTaskMs, apiLagMs, streamLagMs };
  } finally {
    await started.browser?.close();
    await started.rt?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
