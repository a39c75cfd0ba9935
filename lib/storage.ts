import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { EXPORT_RETENTION_DAYS } from '../functions/exports/export-jobs';
import { buckets, tables, type BucketKey, type KeyAttribute, type TableDefinition, type TableKey } from '../functions/definitions/resources';

/** Uploaded large batches land under this prefix; the S3 notification that processes them filters on it. */
export const UPLOADS_INCOMING_PREFIX = 'incoming/';
/** Processing results of uploaded batches, read by GET /v1/uploads/{id}. */
export const UPLOADS_RESULTS_PREFIX = 'results/';

export interface StorageProps {
  /** What happens to tables and buckets when the stack is deleted. */
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The service's state: the DynamoDB tables and S3 buckets declared in
 * functions/definitions/resources.ts, so AWS and local mode build the same key schemas.
 */
export class Storage extends Construct {
  readonly tables: Record<TableKey, dynamodb.Table>;
  readonly buckets: Record<BucketKey, s3.Bucket>;
  /** Server access logs of the other buckets. */
  readonly accessLogsBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: StorageProps) {
    super(scope, id);
    // Log delivery is authorised by a bucket policy rather than an ACL, so every bucket can keep
    // ACLs disabled (BucketOwnerEnforced). Set here, before the buckets, as cdk.json does not reach tests.
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);

    this.tables = {
      resources: this.table(tables.resources, props.removalPolicy),
      dedup: this.table(tables.dedup, props.removalPolicy),
      profiles: this.table(tables.profiles, props.removalPolicy),
      billing: this.table(tables.billing, props.removalPolicy),
    };

    this.accessLogsBucket = new s3.Bucket(this, 'AccessLogsBucket', {
      ...secureBucketDefaults,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(90) }],
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.accessLogsBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the server access log bucket; logging it into itself would loop.',
    });

    this.buckets = {
      archive: this.bucket(buckets.archive.logicalName, props.removalPolicy, {
        // Archived batches are the source of bulk export and re-indexing: keep overwritten versions.
        versioned: true,
        lifecycleRules: [
          {
            id: 'archive-tiering',
            transitions: [
              { storageClass: s3.StorageClass.INFREQUENT_ACCESS, transitionAfter: Duration.days(30) },
              { storageClass: s3.StorageClass.GLACIER_INSTANT_RETRIEVAL, transitionAfter: Duration.days(90) },
            ],
            noncurrentVersionExpiration: Duration.days(30),
            abortIncompleteMultipartUploadAfter: Duration.days(1),
          },
        ],
      }),
      failedRecords: this.bucket(buckets.failedRecords.logicalName, props.removalPolicy, {
        lifecycleRules: [
          {
            id: 'failed-records-tiering',
            transitions: [{ storageClass: s3.StorageClass.INFREQUENT_ACCESS, transitionAfter: Duration.days(30) }],
          },
        ],
      }),
      // Read and rewritten on every merge of a large profile; the previous version is deleted after each.
      profileDocuments: this.bucket(buckets.profileDocuments.logicalName, props.removalPolicy, {
        lifecycleRules: [{ id: 'profile-documents-multipart', abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      }),
      uploads: this.bucket(buckets.uploads.logicalName, props.removalPolicy, {
        // Uploaded batches are processed within minutes; their results are polled shortly after.
        lifecycleRules: [{ id: 'expire-uploads', expiration: Duration.days(7), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      }),
      exports: this.bucket(buckets.exports.logicalName, props.removalPolicy, {
        // The export worker deletes a job's parts when its retention ends; this catches any it missed.
        lifecycleRules: [{ id: 'expire-exports', expiration: Duration.days(EXPORT_RETENTION_DAYS + 1), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
      }),
    };
  }

  private table(definition: TableDefinition, removalPolicy: RemovalPolicy): dynamodb.Table {
    return new dynamodb.Table(this, definition.logicalName, {
      partitionKey: attribute(definition.partitionKey),
      ...(definition.sortKey ? { sortKey: attribute(definition.sortKey) } : {}),
      ...(definition.timeToLiveAttribute ? { timeToLiveAttribute: definition.timeToLiveAttribute } : {}),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy,
    });
  }

  private bucket(id: string, removalPolicy: RemovalPolicy, props: Pick<s3.BucketProps, 'versioned' | 'lifecycleRules'>): s3.Bucket {
    return new s3.Bucket(this, id, {
      ...secureBucketDefaults,
      ...props,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: `${id}/`,
      removalPolicy,
    });
  }
}

const secureBucketDefaults = {
  // SSE-S3: encrypted at rest without KMS request charges, and the only option log delivery accepts.
  encryption: s3.BucketEncryption.S3_MANAGED,
  enforceSSL: true,
  blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
  objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
} satisfies s3.BucketProps;

function attribute(key: KeyAttribute): dynamodb.Attribute {
  return { name: key.name, type: key.type === 'S' ? dynamodb.AttributeType.STRING : dynamodb.AttributeType.NUMBER };
}
