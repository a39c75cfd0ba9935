/**
 * `npm run smoke`: proves a running service end to end, as a client sees it. It sends one API call
 * (with a fresh transaction id) through the collector, then reads it back through the management
 * API's search until it is there, and prints how long that took.
 *
 *   npm run smoke                      the local service of DATA_DIR (default .data), from its local.json
 *   npm run smoke -- --collector-url https://… --management-url https://… \
 *                    --application-id <collector application id> --token <management token with read:events>
 *
 * Exit code 0 when the event was read back, 1 when it was not within --timeout seconds (default 60).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runCommandLine, UsageError } from './command-line';

const USAGE = `usage: npm run smoke -- [--data-dir dir] | --collector-url url --management-url url --application-id id --token token [--timeout seconds] [--json]`;

interface Target {
  collectorUrl: string;
  managementUrl: string;
  applicationId: string;
  token: string;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      'collector-url': { type: 'string' },
      'management-url': { type: 'string' },
      'application-id': { type: 'string' },
      token: { type: 'string' },
      timeout: { type: 'string', default: '60' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const target = await resolveTarget(values);
  const timeoutMs = Number(values.timeout) * 1000;
  const transactionId = randomUUID();
  const now = new Date().toISOString();
  const started = Date.now();

  const sent = await fetch(`${trim(target.collectorUrl)}/v1/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-application-id': target.applicationId },
    body: JSON.stringify({
      transaction_id: transactionId,
      request: { time: now, uri: 'https://smoke-test.example.com/smoke?check=1', verb: 'GET', headers: { 'user-agent': 'usage-analytics-smoke' } },
      response: { time: now, status: 200, headers: {} },
      user_id: 'smoke-test',
      metadata: { smoke_test: true },
    }),
  });
  if (sent.status !== 201) return fail(values.json, `the collector answered ${sent.status}: ${await sent.text()}`);
  const acknowledgedMs = Date.now() - started;

  // Ingestion is asynchronous: the event is searchable a moment after the 201.
  const deadline = started + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const read = await fetch(`${trim(target.managementUrl)}/search/~/events/${transactionId}`, { headers: { authorization: `Bearer ${target.token}` } });
    if (read.status === 200) {
      const body = (await read.json()) as { _source?: { transaction_id?: string } };
      if (body._source?.transaction_id !== transactionId) return fail(values.json, `search answered another event: ${JSON.stringify(body).slice(0, 300)}`);
      const result = { ok: true, transaction_id: transactionId, acknowledged_ms: acknowledgedMs, searchable_ms: Date.now() - started };
      console.log(
        values.json
          ? JSON.stringify(result)
          : `ok: event ${transactionId} acknowledged in ${result.acknowledged_ms} ms, searchable after ${result.searchable_ms} ms`,
      );
      return 0;
    }
    // Not there yet (404), or busy for a moment (429 throttled, 503 unavailable): asked again until the deadline.
    if (read.status !== 404 && read.status !== 429 && read.status !== 503) return fail(values.json, `search answered ${read.status}: ${await read.text()}`);
    last = `${read.status}${read.status === 404 ? '' : `: ${await read.text()}`}`;
    await new Promise((done) => setTimeout(done, 250));
  }
  return fail(values.json, `event ${transactionId} was acknowledged but not searchable within ${values.timeout} s (last answer ${last})`);
}

async function resolveTarget(values: Record<string, string | boolean | undefined>): Promise<Target> {
  const given = [values['collector-url'], values['management-url'], values['application-id'], values['token']];
  if (given.some((value) => value !== undefined)) {
    if (given.some((value) => typeof value !== 'string' || value === ''))
      throw new UsageError(`--collector-url, --management-url, --application-id and --token go together\n${USAGE}`);
    const [collectorUrl, managementUrl, applicationId, token] = given as string[];
    return { collectorUrl: collectorUrl!, managementUrl: managementUrl!, applicationId: applicationId!, token: token! };
  }
  const dataDir = resolve((values['data-dir'] as string | undefined) ?? process.env['DATA_DIR'] ?? '.data');
  try {
    const local = JSON.parse(await readFile(join(dataDir, 'local.json'), 'utf8'));
    return {
      collectorUrl: local.collector_url,
      managementUrl: local.management_url,
      applicationId: local.collector_application_id,
      token: local.management_token,
    };
  } catch {
    throw new UsageError(`no ${join(dataDir, 'local.json')}: start the local service with npm start, or pass the deployed stack's URLs\n${USAGE}`);
  }
}

function trim(url: string): string {
  return url.replace(/\/+$/, '');
}

function fail(json: boolean | undefined, reason: string): number {
  console.error(json ? JSON.stringify({ ok: false, reason }) : `failed: ${reason}`);
  return 1;
}

runCommandLine(main);
