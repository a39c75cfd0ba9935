import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { App, AppSettings } from '../../schemas/app';
import { RuleConfigStore } from '../../functions/governance/rule-config-store';
import { GovernanceRuleStore } from '../../functions/governance/rule-store';
import { createCollectorHandler } from '../../functions/routers/collector-api';
import type { StreamEntry } from '../../functions/ingest/stream/pack-records';
import type { RecordPublisher } from '../../functions/ingest/stream/publisher';
import { UploadStore } from '../../functions/ingest/uploads/upload-store';
import type { HttpEvent } from '../../functions/shared/http/types';
import { realisticBatch } from './fixtures';
import { compare } from './timing';

/** Keeps what the collector publishes in memory: the benchmark measures the handler, not a stream. */
class InMemoryStream implements RecordPublisher {
  records = 0;
  bytes = 0;
  async publish(entries: readonly StreamEntry[]): Promise<void> {
    this.records += entries.length;
    for (const e of entries) this.bytes += e.data.length;
  }
}

export interface CollectorThroughputResult {
  events: number;
  bodyBytes: number;
  jsonParseMs: number;
  handlerMs: number;
  /** handler throughput ÷ JSON.parse throughput: the target is ≥ 0.5. */
  ratio: number;
  eventsPerSecond: number;
  records: number;
}

/**
 * The collector handler on a 2,000-event batch — route, authenticate, decode, validate, normalise,
 * pack and encode for Kinesis — against bare JSON.parse of the same body, in alternating rounds.
 */
export async function benchCollectorThroughput(options: { events?: number; rounds?: number } = {}): Promise<CollectorThroughputResult> {
  const events = options.events ?? 2000;
  const rounds = options.rounds ?? 25;
  const now = new Date().toISOString();
  const app = App.parse({
    org_id: 'org_bench',
    app_id: 'app_bench',
    name: 'bench',
    collector_application_id: 'b'.repeat(64),
    settings: AppSettings.parse({}),
    created_at: now,
    modified_at: now,
  });
  const stream = new InMemoryStream();
  // Clients the handler never calls on this path (rules and uploads are other routes).
  const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
  const handler = createCollectorHandler({
    apps: { findByCollectorApplicationId: async (id) => (id === app.collector_application_id ? app : undefined) },
    rules: new GovernanceRuleStore(documents, 'unused', new RuleConfigStore(documents, 'unused')),
    uploads: new UploadStore(new S3Client({ region: 'us-east-1' }), 'unused'),
    publisher: stream,
    region: 'bench',
  });
  const body = JSON.stringify(realisticBatch(events));
  const event = (): HttpEvent =>
    ({
      version: '2.0',
      routeKey: '$default',
      rawPath: '/v1/events/batch',
      rawQueryString: '',
      headers: { 'content-type': 'application/json', 'x-service-application-id': app.collector_application_id },
      body,
      isBase64Encoded: false,
      requestContext: {
        http: { method: 'POST', path: '/v1/events/batch', protocol: 'HTTP/1.1', sourceIp: '203.0.113.1', userAgent: 'bench' },
        timeEpoch: Date.now(),
      },
    }) as unknown as HttpEvent;

  // Warm up both paths (JIT) before measuring.
  for (let i = 0; i < 5; i++) {
    JSON.parse(body);
    const result = await handler(event());
    if (result.statusCode !== 201) throw new Error(`collector answered ${result.statusCode}: ${result.body}`);
  }
  stream.records = 0;
  const { baselineMs, subjectMs } = await compare(
    rounds,
    () => JSON.parse(body),
    () => handler(event()),
  );
  return {
    events,
    bodyBytes: Buffer.byteLength(body),
    jsonParseMs: baselineMs,
    handlerMs: subjectMs,
    ratio: baselineMs / subjectMs,
    eventsPerSecond: (events / subjectMs) * 1000,
    records: stream.records / rounds,
  };
}
