import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { buckets, tables } from '../functions/definitions/resources';
import { ExportWorkerEnv, lambdaEnvironment, openSearchEnvironment } from '../functions/definitions/environment';
import { grantListBucket, grantObjectAccess } from './object-access';
import type { SearchDomain } from './search-domain';
import { ServiceFunction } from './service-function';
import type { Storage } from './storage';

export interface ExportWorkerProps {
  readonly storage: Storage;
  readonly search: SearchDomain;
  readonly logLevel: string;
  readonly logRetention: logs.RetentionDays;
}

/**
 * The export worker: an EventBridge rule invokes a Lambda every minute that runs queued exports
 * (so a new job starts within a minute), continues any whose runner stopped (its lease ended), and
 * deletes the parts of expired, cancelled and failed jobs. A run spends up to 15 minutes; a job
 * longer than that is continued by a later run from its recorded cursor.
 */
export class ExportWorker extends Construct {
  readonly function: ServiceFunction;
  readonly schedule: events.Rule;

  constructor(scope: Construct, id: string, props: ExportWorkerProps) {
    super(scope, id);
    this.function = new ServiceFunction(this, 'Worker', {
      entry: 'functions/entries/export-worker.ts',
      description: 'export worker: bulk exports to gzip parts in S3',
      // A part (up to 64 MB of text) is built in memory and compressed.
      memorySize: 1024,
      timeout: Duration.minutes(15),
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      environment: {
        ...lambdaEnvironment(ExportWorkerEnv, {
          ...openSearchEnvironment(props.search),
          [tables.resources.envVar]: props.storage.tables.resources.tableName,
          [buckets.exports.envVar]: props.storage.buckets.exports.bucketName,
        }),
      },
    });
    // Reads and updates jobs (optimistic puts), reads and clears the queue.
    props.storage.tables.resources.grant(
      this.function.function,
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:DeleteItem',
    );
    grantObjectAccess(
      this.function.role,
      props.storage.buckets.exports,
      ['s3:PutObject', 's3:DeleteObject'],
      'exports/*',
      'Export parts are keyed by tenant, job id and part number.',
    );
    grantListBucket(this.function.role, props.storage.buckets.exports);
    // Exports read through the search port.
    props.search.grantHttpAccess(this.function.role);

    this.schedule = new events.Rule(this, 'Schedule', {
      description: 'Run queued bulk exports and delete expired export parts',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      // A missed run is superseded by the next one: no retries.
      targets: [new targets.LambdaFunction(this.function.function, { retryAttempts: 0 })],
    });
  }
}
