/**
 * `npm run quarantine -- <list | show <key> | replay <key>... | replay --all>`: inspect and replay the
 * stream records the consumer could not store (the failed-records bucket: quarantine/ for records
 * refused at once, with the reason; on-failure/ for records that failed every retry).
 *
 * Locally it finds the running `npm start` through DATA_DIR/runtime.json (DATA_DIR defaults to .data).
 * On AWS pass the stack's outputs: --bucket <FailedRecordsBucketName> --stream <IngestStreamName> [--region r].
 * A replayed object moves under replayed/ in the same bucket.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Quarantine } from '../functions/ingest/consumer/quarantine';
import { replayQuarantined } from '../functions/ingest/consumer/quarantine-replay';
import { KinesisPublisher } from '../functions/ingest/stream/publisher';
import { createAwsClients, destroyAwsClients, type AwsClients } from '../functions/shared/aws/clients';
import { createLocalAwsClients } from './local/local-aws-clients';
import { readRuntimeFile } from './local/runtime-file';
import { runCommandLine, UsageError } from './command-line';

const USAGE = `usage: npm run quarantine -- list | show <key> | replay <key>... | replay --all
  [--data-dir dir]                               the local runtime (default: DATA_DIR or .data; npm start must be running)
  [--bucket name --stream name [--region r]]     a deployed stack (its FailedRecordsBucketName and IngestStreamName outputs)
  [--json]                                       machine-readable output`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      bucket: { type: 'string' },
      stream: { type: 'string' },
      region: { type: 'string' },
      all: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...keys] = positionals;
  if (values.help || !command || !['list', 'show', 'replay'].includes(command)) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const target = await resolveTarget(values);
  try {
    return await run(command, keys, values, target);
  } finally {
    destroyAwsClients(target.clients);
  }
}

async function run(command: string, keys: string[], values: { all: boolean; json: boolean }, target: Target): Promise<number> {
  const quarantine = new Quarantine(target.clients.s3, target.bucket);
  const print = (value: unknown, text: string) => console.log(values.json ? JSON.stringify(value) : text);

  if (command === 'list') {
    const entries = await Promise.all((await quarantine.list()).map(async (key) => ({ key, ...summary(await quarantine.read(key)) })));
    print(
      entries,
      entries.length === 0 ? 'nothing is quarantined' : entries.map((e) => `${e.key}\n  ${e.records} record(s), ${e.quarantined_at}: ${e.reason}`).join('\n'),
    );
    return 0;
  }
  if (command === 'show') {
    if (keys.length !== 1) throw new UsageError('usage: show <key>');
    const entry = await quarantine.read(keys[0]!);
    const decoded = entry.records.map((record) => ({ ...record, data: Buffer.from(record.data, 'base64').toString('utf8').slice(0, 2000) }));
    print({ ...entry, records: decoded }, JSON.stringify({ ...entry, records: decoded }, null, 2));
    return 0;
  }
  const toReplay = values.all ? await quarantine.list() : keys;
  if (toReplay.length === 0) throw new UsageError('usage: replay <key>... | replay --all');
  const publisher = new KinesisPublisher(target.clients.kinesis, target.stream);
  for (const key of toReplay) {
    const replayed = await replayQuarantined(quarantine, publisher, key);
    print({ key, ...replayed }, `${key}: ${replayed.records} record(s) back on the stream; kept as ${replayed.movedTo}`);
  }
  return 0;
}

function summary(entry: Awaited<ReturnType<Quarantine['read']>>) {
  return { reason: entry.reason, quarantined_at: entry.quarantined_at, records: entry.records.length };
}

interface Target {
  bucket: string;
  stream: string;
  clients: AwsClients;
}

async function resolveTarget(values: { 'data-dir'?: string; bucket?: string; stream?: string; region?: string }): Promise<Target> {
  if (values.bucket || values.stream) {
    if (!values.bucket || !values.stream) throw new UsageError('--bucket and --stream go together');
    return { bucket: values.bucket, stream: values.stream, clients: createAwsClients({ region: values.region }) };
  }
  const dataDir = resolve(values['data-dir'] ?? process.env['DATA_DIR'] ?? '.data');
  const runtime = await readRuntimeFile(dataDir);
  if (!runtime) throw new UsageError(`no running local service in ${dataDir} (start it with npm start, or pass --bucket and --stream for a deployed stack)`);
  return { bucket: runtime.names.buckets.failedRecords, stream: runtime.names.stream, clients: createLocalAwsClients(runtime.endpoints) };
}

runCommandLine(main);
