import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kinesis from 'aws-cdk-lib/aws-kinesis';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Construct } from 'constructs';
import { buckets, ingestStream, tables } from '../functions/definitions/resources';
import { grantObjectAccess } from './object-access';
import { ServiceFunction } from './service-function';
import { UPLOADS_INCOMING_PREFIX, UPLOADS_RESULTS_PREFIX, type Storage } from './storage';
import { lambdaEnvironment, UploadProcessorEnv } from '../functions/definitions/environment';

export interface BatchUploadsProps {
  readonly storage: Storage;
  readonly stream: kinesis.IStream;
  readonly logLevel: string;
  readonly logRetention: logs.RetentionDays;
}

/**
 * Batches too large for API Gateway (10 MB) and Lambda (6 MB) request bodies are PUT to the uploads
 * bucket with a pre-signed URL from the collector; each new object under `incoming/` starts the
 * upload processor, which validates it like the collector does, publishes it to the stream and
 * writes the result object that GET /v1/uploads/{id} reports.
 */
export class BatchUploads extends Construct {
  readonly processor: ServiceFunction;

  constructor(scope: Construct, id: string, props: BatchUploadsProps) {
    super(scope, id);
    const { storage } = props;
    const uploads = storage.buckets.uploads;

    this.processor = new ServiceFunction(this, 'Processor', {
      entry: 'functions/entries/batch-uploads.ts',
      description: 'upload processor: validates an uploaded large batch and publishes it to the ingest stream',
      // A 50 MB batch is decompressed, parsed and validated in memory.
      memorySize: 3008,
      timeout: Duration.minutes(5),
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      environment: {
        ...lambdaEnvironment(UploadProcessorEnv, {
          [ingestStream.envVar]: props.stream.streamName,
          [tables.resources.envVar]: storage.tables.resources.tableName,
          [buckets.uploads.envVar]: uploads.bucketName,
        }),
      },
    });
    const processor = this.processor.function;
    processor.addToRolePolicy(new iam.PolicyStatement({ actions: ['kinesis:PutRecords'], resources: [props.stream.streamArn] }));
    storage.tables.resources.grantReadData(processor);
    grantObjectAccess(
      this.processor.role,
      uploads,
      ['s3:GetObject'],
      `${UPLOADS_INCOMING_PREFIX}*`,
      'The processor reads whichever upload the notification names; all uploads are under incoming/.',
    );
    grantObjectAccess(
      this.processor.role,
      uploads,
      ['s3:PutObject'],
      `${UPLOADS_RESULTS_PREFIX}*`,
      'The processor writes the result object of each upload id under results/.',
    );

    uploads.addEventNotification(s3.EventType.OBJECT_CREATED, new LambdaDestination(processor), { prefix: UPLOADS_INCOMING_PREFIX });
  }
}
