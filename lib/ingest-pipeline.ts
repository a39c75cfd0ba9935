import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as kinesis from 'aws-cdk-lib/aws-kinesis';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { KinesisEventSource, S3OnFailureDestination } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { buckets, consumerEventSource, ingestStream, tables } from '../functions/definitions/resources';
import type { SearchDomain } from './search-domain';
import { grantListBucket, grantObjectAccess } from './object-access';
import { ServiceFunction } from './service-function';
import type { Storage } from './storage';
import { lambdaEnvironment, openSearchEnvironment, ConsumerEnv, settingVariables } from '../functions/definitions/environment';
import { GEOGRAPHY_DATABASE_PATH, geographyBundlingCommands } from './geography-bundling';

export interface IngestPipelineProps {
  readonly storage: Storage;
  readonly search: SearchDomain;
  readonly logLevel: string;
  readonly logRetention: logs.RetentionDays;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The stream between the collector and the consumer, and the consumer itself: dedup, profile
 * merge, archive, index. Failed batches end in the failed-records bucket with their payload.
 */
export class IngestPipeline extends Construct {
  readonly stream: kinesis.Stream;
  readonly consumer: ServiceFunction;
  readonly eventSource: KinesisEventSource;

  constructor(scope: Construct, id: string, props: IngestPipelineProps) {
    super(scope, id);
    const { storage } = props;

    this.stream = new kinesis.Stream(this, ingestStream.logicalName, {
      streamMode: kinesis.StreamMode.ON_DEMAND,
      // The AWS-managed key (alias/aws/kinesis): encrypted at rest without per-call KMS charges to us.
      encryption: kinesis.StreamEncryption.MANAGED,
      retentionPeriod: Duration.hours(ingestStream.retentionHours),
      removalPolicy: props.removalPolicy,
    });

    this.consumer = new ServiceFunction(this, 'Consumer', {
      entry: 'functions/entries/ingest-consumer.ts',
      description: 'ingest consumer: dedup, profile merge, archive and index of stream records',
      memorySize: 1024,
      timeout: Duration.minutes(2),
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      afterBundling: geographyBundlingCommands,
      environment: {
        ...lambdaEnvironment(ConsumerEnv, {
          [settingVariables.geoIpDatabase]: GEOGRAPHY_DATABASE_PATH,
          ...openSearchEnvironment(props.search),
          [tables.dedup.envVar]: storage.tables.dedup.tableName,
          [tables.profiles.envVar]: storage.tables.profiles.tableName,
          [buckets.profileDocuments.envVar]: storage.buckets.profileDocuments.bucketName,
          [tables.billing.envVar]: storage.tables.billing.tableName,
          [tables.resources.envVar]: storage.tables.resources.tableName,
          [buckets.archive.envVar]: storage.buckets.archive.bucketName,
          // The consumer itself quarantines records that can never succeed (unparseable, refused for
          // good) there; its PutObject comes with the on-failure destination below.
          [buckets.failedRecords.envVar]: storage.buckets.failedRecords.bucketName,
          OPENSEARCH_REPLICAS: String(props.search.replicas),
        }),
      },
    });
    const consumer = this.consumer.function;
    storage.tables.dedup.grantReadWriteData(consumer);
    // Dedup claims are PartiQL INSERTs, 25 per BatchExecuteStatement (dedup-store.ts).
    storage.tables.dedup.grant(consumer, 'dynamodb:PartiQLInsert');
    storage.tables.profiles.grantReadWriteData(consumer);
    // Late-event marks for billing corrections: UpdateItem on LATE#… items only.
    storage.tables.billing.grant(consumer, 'dynamodb:UpdateItem');
    // Contract ABIs (ETH_ABI#… items of an app's partition), read to decode Ethereum JSON-RPC calls;
    // the app item, read for its route templates.
    storage.tables.resources.grant(consumer, 'dynamodb:Query', 'dynamodb:GetItem');
    grantObjectAccess(
      this.consumer.role,
      storage.buckets.profileDocuments,
      ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
      'profiles/*',
      'Overflow documents are keyed by tenant, kind and a hash of the profile id, known only per record.',
    );
    grantObjectAccess(
      this.consumer.role,
      storage.buckets.archive,
      ['s3:PutObject'],
      '*',
      'Archive objects are keyed by app and date, both known only per batch; the consumer only adds objects.',
    );
    props.search.grantHttpAccess(this.consumer.role);

    this.eventSource = new KinesisEventSource(this.stream, {
      // From the oldest record: whatever the collector acknowledged before the mapping existed is consumed too.
      startingPosition: lambda.StartingPosition.TRIM_HORIZON,
      batchSize: consumerEventSource.batchSize,
      maxBatchingWindow: Duration.seconds(consumerEventSource.maxBatchingWindowSeconds),
      retryAttempts: consumerEventSource.retryAttempts,
      maxRecordAge: Duration.hours(consumerEventSource.maxRecordAgeHours),
      bisectBatchOnError: consumerEventSource.bisectBatchOnError,
      parallelizationFactor: consumerEventSource.parallelizationFactor,
      reportBatchItemFailures: consumerEventSource.reportBatchItemFailures,
      // Lambda writes the whole invocation record (the batch's payload included) to S3, not just
      // shard and sequence numbers, so a failed batch stays replayable after the stream's retention.
      onFailure: new PayloadKeepingS3Destination(storage.buckets.failedRecords, this.consumer.role),
    });
    consumer.addEventSource(this.eventSource);
  }
}

/**
 * S3OnFailureDestination with the permissions Lambda documents for an S3 destination
 * (s3:PutObject, s3:ListBucket) instead of the base class's read-write grant on the bucket.
 */
class PayloadKeepingS3Destination extends S3OnFailureDestination {
  constructor(
    private readonly destinationBucket: s3.IBucket,
    private readonly role: iam.IRole,
  ) {
    super(destinationBucket);
  }

  override bind(_target: lambda.IEventSourceMapping, _targetHandler: lambda.IFunction): lambda.DlqDestinationConfig {
    grantObjectAccess(
      this.role,
      this.destinationBucket,
      ['s3:PutObject'],
      '*',
      'Lambda names failed-batch objects itself (aws/lambda/<mapping id>/<shard>/<date>/...); the consumer quarantines under quarantine/<date>/.',
    );
    grantListBucket(this.role, this.destinationBucket);
    return { destination: this.destinationBucket.bucketArn };
  }
}
