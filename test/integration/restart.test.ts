import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, send, uuid } from './support/runtime';
import { freePort, listening, processesMentioning, startService, waitForProbe, waitUntilNoProcessMentions } from './support/service-process';

describe('npm start: restart keeps data, shutdown drains and leaves no process behind', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'uab-restart-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged event across a SIGTERM and a restart', async () => {
    const collectorPort = await freePort();
    const managementPort = await freePort();
    const collectorUrl = `http://127.0.0.1:${collectorPort}`;

    const first = startService(dataDir, collectorPort, managementPort);
    await waitForProbe(collectorUrl, first);
    const credentials = JSON.parse(await readFile(join(dataDir, 'local.json'), 'utf8'));
    expect(credentials).toMatchObject({ collector_url: collectorUrl, management_url: `http://127.0.0.1:${managementPort}` });
    expect(credentials.collector_application_id.length).toBeGreaterThanOrEqual(50);

    const headers = { 'content-type': 'application/json', 'x-service-application-id': credentials.collector_application_id };
    const events = Array.from({ length: 300 }, (_, i) => apiCall({ transaction_id: uuid(i) }));
    for (let i = 0; i < 3; i++) {
      const res = await send(`${collectorUrl}/v1/events/batch`, { method: 'POST', headers, body: JSON.stringify(events.slice(i * 100, i * 100 + 100)) });
      expect(res.status).toBe(201);
    }
    // Stop right after the acknowledgements: the shutdown must drain what is still on the stream.
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(processesMentioning(dataDir)).toEqual([]);

    const second = startService(dataDir, collectorPort, managementPort);
    try {
      await waitForProbe(collectorUrl, second);
      const again = JSON.parse(await readFile(join(dataDir, 'local.json'), 'utf8'));
      expect(again).toEqual(credentials);
      const auth = { authorization: `Bearer ${credentials.management_token}` };
      const missing: number[] = [];
      for (let i = 0; i < 300; i++) {
        const res = await send(`${credentials.management_url}/search/~/events/${uuid(i)}`, { method: 'GET', headers: auth });
        if (res.status !== 200) missing.push(i);
      }
      expect(missing).toEqual([]);
      // The collector still knows the app after the restart.
      expect((await send(`${collectorUrl}/v1/events`, { method: 'POST', headers, body: JSON.stringify(apiCall()) })).status).toBe(201);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
    expect(processesMentioning(dataDir)).toEqual([]);
  }, 240_000);

  it('a kill -9 of npm leaves no orphan: the service sees its parent gone and stops itself and its emulators', async () => {
    const orphanDir = await mkdtemp(join(tmpdir(), 'uab-orphan-'));
    const collectorPort = await freePort();
    const managementPort = await freePort();
    try {
      const npm = startService(orphanDir, collectorPort, managementPort, { SHUTDOWN_DRAIN_MS: '0', BILLING_INTERVAL_MS: '0' }, true);
      await waitForProbe(`http://127.0.0.1:${collectorPort}`, npm);
      npm.child.kill('SIGKILL');
      await npm.exited;
      await waitUntilNoProcessMentions(orphanDir, 60_000);
      expect(await listening(collectorPort)).toBe(false);
      expect(await listening(managementPort)).toBe(false);
    } finally {
      await rm(orphanDir, { recursive: true, force: true });
    }
  }, 240_000);

  it('npm start stays the parent until every child has stopped; a SIGTERM with a bounded drain keeps the rest for the next start', async () => {
    const drainDir = await mkdtemp(join(tmpdir(), 'uab-drain-'));
    const collectorPort = await freePort();
    const managementPort = await freePort();
    const collectorUrl = `http://127.0.0.1:${collectorPort}`;
    try {
      // No draining at all: whatever the consumer has not finished when SIGTERM comes stays journaled.
      const npm = startService(drainDir, collectorPort, managementPort, { SHUTDOWN_DRAIN_MS: '0', BILLING_INTERVAL_MS: '0' }, true);
      await waitForProbe(collectorUrl, npm);
      const credentials = JSON.parse(await readFile(join(drainDir, 'local.json'), 'utf8'));
      const headers = { 'content-type': 'application/json', 'x-service-application-id': credentials.collector_application_id };
      const events = Array.from({ length: 2000 }, (_, i) => apiCall({ transaction_id: uuid(50_000 + i) }));
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          send(`${collectorUrl}/v1/events/batch`, { method: 'POST', headers, body: JSON.stringify(events.slice(i * 100, i * 100 + 100)) }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
      npm.child.kill('SIGTERM');
      expect(await npm.exited).toBe(0);
      // When npm has exited, the service and its emulators have too.
      expect(await listening(collectorPort)).toBe(false);
      expect(await listening(managementPort)).toBe(false);
      expect(processesMentioning(drainDir)).toEqual([]);

      const second = startService(drainDir, collectorPort, managementPort, { BILLING_INTERVAL_MS: '0' });
      try {
        await waitForProbe(collectorUrl, second);
        const auth = { authorization: `Bearer ${credentials.management_token}`, 'content-type': 'application/json' };
        const count = async () =>
          (await send(`${credentials.management_url}/search/~/count/events?from=-1d&to=now`, { method: 'POST', headers: auth, body: '{}' })).body.count;
        const deadline = Date.now() + 60_000;
        while ((await count()) < events.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 300));
        expect(await count()).toBe(events.length);
      } finally {
        second.child.kill('SIGTERM');
        expect(await second.exited).toBe(0);
      }
      expect(processesMentioning(drainDir)).toEqual([]);
    } finally {
      await rm(drainDir, { recursive: true, force: true });
    }
  }, 240_000);
});
