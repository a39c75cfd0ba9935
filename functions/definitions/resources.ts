/**
 * The one declaration of the service's storage: DynamoDB tables, the ingest stream and the S3
 * buckets. The CDK stack, the local runtime and the tests all build their resources from this,
 * so a key schema or a TTL attribute cannot drift between AWS and local mode.
 */

export type KeyAttribute = { name: string; type: 'S' | 'N' };

export interface TableDefinition {
  /** Logical name: the CDK construct id and, with a prefix, the local table name. */
  readonly logicalName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  /** Attribute holding an epoch-seconds expiry, if items expire. */
  readonly timeToLiveAttribute?: string;
  /** The environment variable through which Lambdas receive the physical table name. */
  readonly envVar: string;
  readonly purpose: string;
}

export const tables = {
  /**
   * Organisations, org users, apps, collector keys, token records, managed resources, rate-limit
   * counters: `pk`/`sk` items. Short-lived items (rate counters, revocations, tombstones) expire
   * through `expires_at`.
   */
  resources: {
    logicalName: 'Resources',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    timeToLiveAttribute: 'expires_at',
    envVar: 'RESOURCES_TABLE',
    purpose: 'orgs, users, apps, collector application ids, tokens, managed resources and rate-limit counters',
  },
  /** One item per `app_id#transaction_id`: the claim that makes every event count once. */
  dedup: {
    logicalName: 'Dedup',
    partitionKey: { name: 'pk', type: 'S' },
    timeToLiveAttribute: 'expires_at',
    envVar: 'DEDUP_TABLE',
    purpose: 'event deduplication claims, kept 35 days',
  },
  /** Merged user, company and subscription profiles, versioned for optimistic concurrency. */
  profiles: {
    logicalName: 'Profiles',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    envVar: 'PROFILES_TABLE',
    purpose: 'merged user, company and subscription profiles',
  },
  /**
   * The money side: billing reports (one item per meter × subscription × window, with its versions),
   * per-subscription balances and their transactions, billing-run progress, and the windows that
   * received late events (so a run re-evaluates only those).
   */
  billing: {
    logicalName: 'Billing',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    timeToLiveAttribute: 'expires_at',
    envVar: 'BILLING_TABLE',
    purpose: 'billing reports, balances and balance transactions, run progress, late-event window marks',
  },
} as const satisfies Record<string, TableDefinition>;

export type TableKey = keyof typeof tables;

export interface StreamDefinition {
  readonly logicalName: string;
  readonly envVar: string;
  /** Local mode only: shards of the emulated stream (AWS uses on-demand capacity). */
  readonly localShardCount: number;
  readonly retentionHours: number;
}

export const ingestStream = {
  logicalName: 'IngestStream',
  envVar: 'INGEST_STREAM_NAME',
  localShardCount: 2,
  retentionHours: 168,
} as const satisfies StreamDefinition;

export interface BucketDefinition {
  readonly logicalName: string;
  readonly envVar: string;
  readonly purpose: string;
}

export const buckets = {
  archive: {
    logicalName: 'ArchiveBucket',
    envVar: 'ARCHIVE_BUCKET',
    purpose: 'raw accepted batches as gzip NDJSON by app and date (bulk export source)',
  },
  failedRecords: {
    logicalName: 'FailedRecordsBucket',
    envVar: 'FAILED_RECORDS_BUCKET',
    purpose: 'stream records the consumer gave up on, with their payload, for replay',
  },
  profileDocuments: {
    logicalName: 'ProfileDocumentsBucket',
    envVar: 'PROFILE_DOCUMENTS_BUCKET',
    purpose: 'merged user/company/subscription documents too large for their DynamoDB item (over 350 KB of JSON)',
  },
  uploads: {
    logicalName: 'UploadsBucket',
    envVar: 'UPLOADS_BUCKET',
    purpose: 'large batches uploaded through pre-signed URLs, and their processing results',
  },
  exports: {
    logicalName: 'ExportsBucket',
    envVar: 'EXPORTS_BUCKET',
    purpose: 'the parts of bulk exports (gzip NDJSON or CSV), downloaded through pre-signed URLs, deleted after their retention',
  },
} as const satisfies Record<string, BucketDefinition>;

export type BucketKey = keyof typeof buckets;

/**
 * The settings of the stream → consumer connection. CDK sets them on the Lambda event source
 * mapping; the local poller implements the same semantics with the same numbers.
 */
export const consumerEventSource = {
  batchSize: 100,
  maxBatchingWindowSeconds: 1,
  retryAttempts: 10,
  maxRecordAgeHours: 24,
  bisectBatchOnError: true,
  parallelizationFactor: 2,
  reportBatchItemFailures: true,
} as const;

/** Dedup claims outlive the 30-day acceptance window, so a late replay is still recognised. */
export const DEDUP_RETENTION_DAYS = 35;
