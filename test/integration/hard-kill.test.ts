import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, send, uuid } from './support/runtime';
import { freePort, startService, waitForProbe, waitUntilNoProcessMentions, type ServiceProcess } from './support/service-process';

/**
 * `kill -9` of `npm start` in the middle of ingestion, three times: every event the collector
 * acknowledged (201) before a kill is counted exactly once after the restarts, once the client has
 * sent again what was never acknowledged (and, as real clients do, some of what was).
 */
const TOTAL_EVENTS = 5_000;
const BATCH = 100;
const SENDERS = 6;
const KILLS = 3;

describe('npm start survives kill -9 with nothing acknowledged lost', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'uab-hard-kill-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it(`counts every acknowledged event exactly once after ${KILLS} SIGKILLs mid-ingest, restarts and resends`, async () => {
    const collectorPort = await freePort();
    const managementPort = await freePort();
    const collectorUrl = `http://127.0.0.1:${collectorPort}`;
    const env = { BILLING_INTERVAL_MS: '0', GOVERNANCE_REFRESH_MS: '0' };
    const events = Array.from({ length: TOTAL_EVENTS }, (_, i) => apiCall({ transaction_id: uuid(i), user_id: `user-${i % 37}` }));
    const acknowledged = new Set<number>();
    let credentials: { collector_application_id: string; management_url: string; management_token: string } | undefined;

    const start = async (): Promise<ServiceProcess> => {
      const service = startService(dataDir, collectorPort, managementPort, env);
      await waitForProbe(collectorUrl, service);
      credentials ??= JSON.parse(await readFile(join(dataDir, 'local.json'), 'utf8'));
      return service;
    };
    const headers = () => ({ 'content-type': 'application/json', 'x-service-application-id': credentials!.collector_application_id });
    /** Sends batches from `pick` with SENDERS in parallel until `stop` says so or nothing is left; records each 201. */
    const sendBatches = async (pick: () => number[] | undefined, stop: () => boolean) => {
      const sender = async () => {
        while (!stop()) {
          const batch = pick();
          if (!batch) return;
          try {
            const res = await send(`${collectorUrl}/v1/events/batch`, {
              method: 'POST',
              headers: headers(),
              body: JSON.stringify(batch.map((i) => events[i])),
            });
            if (res.status === 201) batch.forEach((i) => acknowledged.add(i));
          } catch {
            // the connection died with the process: not acknowledged
          }
        }
      };
      await Promise.all(Array.from({ length: SENDERS }, sender));
    };

    let next = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const service = await start();
      const killAfter = acknowledged.size + 600 + kill * 300;
      let killed = false;
      const killer = (async () => {
        while (acknowledged.size < killAfter && next < TOTAL_EVENTS) await new Promise((r) => setTimeout(r, 5));
        service.child.kill('SIGKILL');
        killed = true;
      })();
      // New batches, each followed now and then by a resend of one already acknowledged.
      let resend = 0;
      await sendBatches(
        () => {
          if (next >= TOTAL_EVENTS) return undefined;
          if (++resend % 4 === 0 && acknowledged.size >= BATCH) return [...acknowledged].slice(0, BATCH);
          const batch = Array.from({ length: Math.min(BATCH, TOTAL_EVENTS - next) }, (_, i) => next + i);
          next += batch.length;
          return batch;
        },
        () => killed,
      );
      await killer;
      expect(await service.exited).toBeNull();
      await waitUntilNoProcessMentions(dataDir);
    }
    expect(acknowledged.size).toBeGreaterThan(0);
    expect(acknowledged.size).toBeLessThan(TOTAL_EVENTS);

    const last = await start();
    try {
      // The client sends again everything never acknowledged.
      let pending = events.map((_, i) => i).filter((i) => !acknowledged.has(i));
      while (pending.length > 0) {
        const batches: number[][] = [];
        for (let i = 0; i < pending.length; i += BATCH) batches.push(pending.slice(i, i + BATCH));
        await sendBatches(
          () => batches.shift(),
          () => false,
        );
        pending = pending.filter((i) => !acknowledged.has(i));
      }
      expect(acknowledged.size).toBe(TOTAL_EVENTS);

      const auth = { authorization: `Bearer ${credentials!.management_token}`, 'content-type': 'application/json' };
      const count = async () =>
        (await send(`${credentials!.management_url}/search/~/count/events?from=-1d&to=now`, { method: 'POST', headers: auth, body: '{}' })).body
          .count as number;
      const deadline = Date.now() + 120_000;
      let counted = await count();
      while (counted < TOTAL_EVENTS && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        counted = await count();
      }
      // Each event has a transaction id, so a count of TOTAL_EVENTS means each is there exactly once.
      expect(counted).toBe(TOTAL_EVENTS);
      const perUser = await send(`${credentials!.management_url}/search/~/search/events?from=-1d&to=now`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ size: 0, aggs: { users: { terms: { field: 'user_id', size: 100 } } } }),
      });
      const buckets = perUser.body.aggregations.users.buckets as { key: string; doc_count: number }[];
      const expected = new Map<string, number>();
      events.forEach((e) => expected.set(e.user_id as string, (expected.get(e.user_id as string) ?? 0) + 1));
      expect(new Map(buckets.map((b) => [b.key, b.doc_count]))).toEqual(expected);
    } finally {
      last.child.kill('SIGTERM');
      expect(await last.exited).toBe(0);
    }
    await waitUntilNoProcessMentions(dataDir);
  }, 600_000);
});
