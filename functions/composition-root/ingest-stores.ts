import { EthAbiCatalog } from '../ethereum/eth-abi-catalog';
import type { BucketKey, TableKey } from '../definitions/resources';
import { LateWindowStore } from '../billing/late-events/late-window-store';
import { RuleConfigStore } from '../governance/rule-config-store';
import { GovernanceRuleStore } from '../governance/rule-store';
import { Archive } from '../ingest/consumer/archive';
import { DedupStore, type ClaimMode } from '../ingest/consumer/dedup-store';
import { Quarantine } from '../ingest/consumer/quarantine';
import { KinesisPublisher, type RecordPublisher } from '../ingest/stream/publisher';
import { UploadStore } from '../ingest/uploads/upload-store';
import { AppStore } from '../organisations/app-store';
import { S3ProfileDocumentOverflow } from '../profiles/profile-overflow';
import { ProfileStore } from '../profiles/profile-store';
import type { AwsClients } from '../shared/aws/clients';

/** Physical names of the tables, buckets and stream (definitions/resources.ts declares them). */
export interface StorageNames {
  readonly tables: Readonly<Record<TableKey, string>>;
  readonly buckets: Readonly<Record<BucketKey, string>>;
  readonly stream: string;
}

/** What differs between deployments (one Lambda, another, the local runtime, a test). */
export interface StoreSettings {
  /**
   * How long a read rule snapshot (GET /v1/config) is reused. The collector Lambda caches (default
   * 5 s); a Lambda that recomputes snapshots reads them fresh (0); the local runtime shares one store.
   */
  readonly ruleConfigCacheTtlMs?: number;
  /** Management API queries per org per calendar minute (MANAGEMENT_RATE_LIMIT_PER_MINUTE); default 500. */
  readonly managementRateLimitPerMinute?: number;
  /** How long one query of the API may run (QUERY_TIME_BUDGET_MS); default 25 s. */
  readonly queryTimeBudgetMs?: number;
  /** Queries one org may run at once (CONCURRENT_QUERIES_PER_ORG); default 10. */
  readonly concurrentQueriesPerOrg?: number;
  /** Queries of all orgs this process runs at once, shared fairly between orgs (SEARCH_CONCURRENCY); default 4. */
  readonly searchConcurrency?: number;
  /** Requests of customer pages (customer tokens) per org per minute (CUSTOMER_PAGES_RATE_LIMIT_PER_MINUTE); default 6,000. */
  readonly customerPagesRateLimitPerMinute?: number;
  /** Checks of signed statements per org per minute (the open verification route); default 60. */
  readonly statementChecksPerMinute?: number;
  /** How long an org's subscription status is cached; at most (and by default) 30 s. */
  readonly orgStatusTtlMs?: number;
  /**
   * How dedup claims are written (dedup-store.ts): `statements` (default; on AWS one write unit per
   * claim) or `transactions` (the local runtime: five times the claims per second on DynamoDB Local).
   */
  readonly dedupClaims?: ClaimMode;
  /** Wall clock (tests fix it). */
  readonly now?: () => Date;
}

export const DEFAULT_CUSTOMER_PAGES_RATE_LIMIT = 6000;
export const DEFAULT_QUERY_TIME_BUDGET_MS = 25_000;
export const DEFAULT_CONCURRENT_QUERIES_PER_ORG = 10;
/** Queries of all orgs one process runs at once: about what two cores keep busy without one org's flood queueing the rest. */
export const DEFAULT_SEARCH_CONCURRENCY = 4;

export interface ServiceStoresInput {
  readonly clients: AwsClients;
  readonly names: StorageNames;
  readonly settings?: StoreSettings;
  /** Where accepted records go; default: the ingest stream itself (the local runtime journals first). */
  readonly publisher?: RecordPublisher;
}

/**
 * The stores the ingest path uses (collector, upload processor, consumer) and the ones they share with
 * everything else, built from clients, resource names and settings. Built on first use, so a Lambda
 * constructs (and needs the names of) only the stores it reads; each is built once and shared.
 * ServiceStores adds the rest; the ingest Lambdas build only this, to keep their bundles small.
 */
export class IngestStores {
  private readonly built = new Map<string, unknown>();
  readonly settings: StoreSettings;

  constructor(protected readonly input: ServiceStoresInput) {
    this.settings = input.settings ?? {};
  }

  get clients(): AwsClients {
    return this.input.clients;
  }

  /** The wall clock every store and operation shares. */
  readonly now = (): Date => this.settings.now?.() ?? new Date();

  protected once<T>(name: string, build: () => T): T {
    if (!this.built.has(name)) this.built.set(name, build());
    return this.built.get(name) as T;
  }

  protected get documents() {
    return this.input.clients.documents;
  }

  protected get resourcesTable(): string {
    return this.input.names.tables.resources;
  }

  protected get billingTable(): string {
    return this.input.names.tables.billing;
  }

  /** Orgs, apps and collector application ids (resources table). */
  get apps(): AppStore {
    return this.once('apps', () => new AppStore(this.documents, this.resourcesTable));
  }
  get ruleConfigs(): RuleConfigStore {
    return this.once(
      'ruleConfigs',
      () =>
        new RuleConfigStore(
          this.documents,
          this.resourcesTable,
          this.settings.ruleConfigCacheTtlMs === undefined ? {} : { cacheTtlMs: this.settings.ruleConfigCacheTtlMs },
        ),
    );
  }
  get rules(): GovernanceRuleStore {
    return this.once('rules', () => new GovernanceRuleStore(this.documents, this.resourcesTable, this.ruleConfigs));
  }
  get publisher(): RecordPublisher {
    return this.once('publisher', () => this.input.publisher ?? new KinesisPublisher(this.input.clients.kinesis, this.input.names.stream));
  }
  get uploads(): UploadStore {
    return this.once('uploads', () => new UploadStore(this.input.clients.s3, this.input.names.buckets.uploads));
  }
  /** Contract ABIs of each app (resources table), read by the consumer once a minute per app. */
  get ethAbis(): EthAbiCatalog {
    return this.once('ethAbis', () => new EthAbiCatalog(this.documents, this.resourcesTable));
  }
  get dedup(): DedupStore {
    return this.once('dedup', () => new DedupStore(this.documents, this.input.names.tables.dedup, { mode: this.settings.dedupClaims ?? 'statements' }));
  }
  get profiles(): ProfileStore {
    return this.once(
      'profiles',
      () =>
        new ProfileStore(
          this.documents,
          this.input.names.tables.profiles,
          new S3ProfileDocumentOverflow(this.input.clients.s3, this.input.names.buckets.profileDocuments),
        ),
    );
  }
  get archive(): Archive {
    return this.once('archive', () => new Archive(this.input.clients.s3, this.input.names.buckets.archive));
  }
  get quarantine(): Quarantine {
    return this.once('quarantine', () => new Quarantine(this.input.clients.s3, this.input.names.buckets.failedRecords));
  }
  /** Hours that received late events, for billing corrections (billing table). */
  get lateWindows(): LateWindowStore {
    return this.once('lateWindows', () => new LateWindowStore(this.documents, this.billingTable));
  }
}
