import { Duration } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kinesis from 'aws-cdk-lib/aws-kinesis';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { buckets, ingestStream, tables } from '../functions/definitions/resources';
import { ServiceHttpApi } from './http-api';
import { grantListBucket, grantObjectAccess } from './object-access';
import { ServiceFunction } from './service-function';
import { UPLOADS_INCOMING_PREFIX, UPLOADS_RESULTS_PREFIX, type Storage } from './storage';
import { lambdaEnvironment, CollectorEnv } from '../functions/definitions/environment';

export interface CollectorApiProps {
  readonly storage: Storage;
  readonly stream: kinesis.IStream;
  readonly logLevel: string;
  readonly logRetention: logs.RetentionDays;
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** Headers the SDKs and browsers send to the collector; moesif-browser-js adds X-Moesif-SDK, which a preflight must allow or the browser sends nothing. */
const COLLECTOR_REQUEST_HEADERS = ['content-type', 'content-encoding', 'authorization', 'x-service-application-id', 'x-moesif-application-id', 'x-moesif-sdk'];

/**
 * The collector front door: an HTTP API whose only route is `$default`, so every request reaches
 * the collector Lambda, which routes with the shared route table. Unknown paths and wrong methods
 * therefore get the service's JSON 404/405 instead of API Gateway's own `{"message":"Not Found"}`.
 */
export class CollectorApi extends Construct {
  readonly http: ServiceHttpApi;
  readonly collector: ServiceFunction;

  constructor(scope: Construct, id: string, props: CollectorApiProps) {
    super(scope, id);
    const { storage } = props;

    this.collector = new ServiceFunction(this, 'Collector', {
      entry: 'functions/entries/collector-api.ts',
      description: 'collector: validates SDK payloads and publishes them to the ingest stream',
      memorySize: 1024,
      // API Gateway stops waiting after 30 s.
      timeout: Duration.seconds(29),
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      environment: {
        ...lambdaEnvironment(CollectorEnv, {
          [ingestStream.envVar]: props.stream.streamName,
          [tables.resources.envVar]: storage.tables.resources.tableName,
          [buckets.uploads.envVar]: storage.buckets.uploads.bucketName,
        }),
      },
    });
    const collector = this.collector.function;
    collector.addToRolePolicy(new iam.PolicyStatement({ actions: ['kinesis:PutRecords'], resources: [props.stream.streamArn] }));
    storage.tables.resources.grantReadData(collector);
    // Pre-signed PUT URLs carry the collector's own permission, so it may write only where uploads
    // land; upload status reads the result object, or finds the upload still pending.
    const uploads = storage.buckets.uploads;
    const role = this.collector.role;
    grantObjectAccess(
      role,
      uploads,
      ['s3:PutObject'],
      `${UPLOADS_INCOMING_PREFIX}*`,
      'Upload ids are generated per request; pre-signed URLs may only target keys under incoming/.',
    );
    grantObjectAccess(
      role,
      uploads,
      ['s3:GetObject'],
      `${UPLOADS_INCOMING_PREFIX}*`,
      'Upload status checks whether an uploaded batch (key per upload id) exists under incoming/.',
    );
    grantObjectAccess(role, uploads, ['s3:GetObject'], `${UPLOADS_RESULTS_PREFIX}*`, 'Upload status reads the result object of an upload id under results/.');
    grantListBucket(role, uploads);

    this.http = new ServiceHttpApi(this, 'Http', {
      description: 'Usage analytics collector API (SDK ingestion)',
      allowHeaders: COLLECTOR_REQUEST_HEADERS,
      allowMethods: [apigw.CorsHttpMethod.GET, apigw.CorsHttpMethod.POST, apigw.CorsHttpMethod.OPTIONS],
      rateLimit: props.rateLimit,
      burstLimit: props.burstLimit,
      logRetention: props.logRetention,
      defaultIntegration: new HttpLambdaIntegration('CollectorIntegration', collector),
    });
    this.http.suppressAuthorizerFinding(
      'Collector requests authenticate with X-Service-Application-Id / X-Moesif-Application-Id, checked by the collector Lambda against the resources table (the SDK protocol has no place for an API Gateway authorizer token).',
    );
  }
}
