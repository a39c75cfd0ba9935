import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, send, uuid } from './support/runtime';
import { freePort, processesMentioning, startService, waitForProbe } from './support/service-process';

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
});
