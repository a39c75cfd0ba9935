import { consumerEventSource, ingestStream } from '../../functions/definitions/resources';
import { existsSync } from 'node:fs';
import { GEOGRAPHY_DATABASE_FILE, GEOGRAPHY_DATABASE_PATH, geographyBundlingCommands } from '../../lib/geography-bundling';
import { logicalIdOf, synthesize } from './synth';

const { stack, template, resources } = synthesize();
const streamId = logicalIdOf(stack.pipeline.stream);
const consumerId = logicalIdOf(stack.pipeline.consumer.function);
const failedRecordsBucketId = logicalIdOf(stack.storage.buckets.failedRecords);

describe('ingest stream', () => {
  it('is on-demand, encrypted with the AWS-managed key, and keeps records as long as the definition says', () => {
    template.resourceCountIs('AWS::Kinesis::Stream', 1);
    expect(resources[streamId]!.Properties).toEqual({
      StreamModeDetails: { StreamMode: 'ON_DEMAND' },
      StreamEncryption: { EncryptionType: 'KMS', KeyId: 'alias/aws/kinesis' },
      RetentionPeriodHours: ingestStream.retentionHours,
    });
    expect(resources[streamId]!.DeletionPolicy).toBe('Retain');
  });
});

describe('consumer event source mapping', () => {
  it('carries the shared consumer settings', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [streamId, 'Arn'] },
      FunctionName: { Ref: consumerId },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: consumerEventSource.batchSize,
      MaximumBatchingWindowInSeconds: consumerEventSource.maxBatchingWindowSeconds,
      MaximumRetryAttempts: consumerEventSource.retryAttempts,
      MaximumRecordAgeInSeconds: consumerEventSource.maxRecordAgeHours * 3600,
      BisectBatchOnFunctionError: consumerEventSource.bisectBatchOnError,
      ParallelizationFactor: consumerEventSource.parallelizationFactor,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('sends failed batches, payload included, to the failed-records bucket', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [failedRecordsBucketId, 'Arn'] } } },
    });
  });

  it('lets the consumer write to the failed-records bucket with exactly the documented S3 permissions', () => {
    const policy = consumerPolicyStatements();
    expect(policy).toContainEqual({
      Effect: 'Allow',
      Action: 's3:PutObject',
      Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [failedRecordsBucketId, 'Arn'] }, '/*']] },
    });
    expect(policy).toContainEqual({ Effect: 'Allow', Action: 's3:ListBucket', Resource: { 'Fn::GetAtt': [failedRecordsBucketId, 'Arn'] } });
    const onFailureBucketActions = policy
      .filter((statement) => JSON.stringify(statement.Resource).includes(failedRecordsBucketId))
      .flatMap((statement) => [statement.Action].flat());
    expect(onFailureBucketActions.sort()).toEqual(['s3:ListBucket', 's3:PutObject']);
  });

  it('lets the consumer read the stream, and the function exists before the mapping', () => {
    expect(consumerPolicyStatements()).toContainEqual(
      expect.objectContaining({
        Action: expect.arrayContaining(['kinesis:GetRecords', 'kinesis:GetShardIterator', 'kinesis:DescribeStreamSummary', 'kinesis:ListShards']),
        Resource: { 'Fn::GetAtt': [streamId, 'Arn'] },
      }),
    );
    expect(resources[consumerId]!.DependsOn).toEqual(expect.arrayContaining([logicalIdOf(stack.pipeline.consumer.role.node.findChild('DefaultPolicy'))]));
  });

  it('lets the consumer write dedup claims and profiles, and only add archive objects', () => {
    const policy = consumerPolicyStatements();
    for (const table of [stack.storage.tables.dedup, stack.storage.tables.profiles]) {
      expect(policy).toContainEqual(
        expect.objectContaining({
          Action: expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:GetItem']),
          Resource: [{ 'Fn::GetAtt': [logicalIdOf(table), 'Arn'] }],
        }),
      );
    }
    expect(policy).toContainEqual(
      expect.objectContaining({ Action: 'dynamodb:PartiQLInsert', Resource: [{ 'Fn::GetAtt': [logicalIdOf(stack.storage.tables.dedup), 'Arn'] }] }),
    );
    // The app item (route templates) and contract ABIs: reads of the resources table, no writes.
    const onResources = policy.filter((statement) => JSON.stringify(statement.Resource).includes(`"${logicalIdOf(stack.storage.tables.resources)}"`));
    expect(onResources.flatMap((statement) => [statement.Action].flat()).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:Query']);
    const archiveId = logicalIdOf(stack.storage.buckets.archive);
    const archiveStatements = policy.filter((statement) => JSON.stringify(statement.Resource).includes(archiveId));
    expect(archiveStatements).toEqual([
      { Effect: 'Allow', Action: 's3:PutObject', Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [archiveId, 'Arn'] }, '/*']] } },
    ]);
  });

  it('lets the consumer read, write and delete overflow profile documents under profiles/ only', () => {
    const bucketId = logicalIdOf(stack.storage.buckets.profileDocuments);
    const statements = consumerPolicyStatements().filter((statement) => JSON.stringify(statement.Resource).includes(bucketId));
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/profiles/*']] },
      },
    ]);
  });
});

describe('consumer enrichment', () => {
  it('finds the IP geography database that bundling copies beside its code', () => {
    expect(resources[consumerId]!.Properties.Environment.Variables.GEO_IP_DATABASE).toBe(GEOGRAPHY_DATABASE_PATH);
    expect(GEOGRAPHY_DATABASE_PATH).toBe(`/var/task/${GEOGRAPHY_DATABASE_FILE}`);
    const [command] = geographyBundlingCommands('/in', '/asset-output');
    const [, source, target] = /^cp "(.+)" "(.+)"$/.exec(command!)!;
    expect(existsSync(source!)).toBe(true);
    expect(target).toBe(`/asset-output/${GEOGRAPHY_DATABASE_FILE}`);
  });
});

describe('collector and upload processor', () => {
  it.each([
    ['collector', () => stack.collectorApi.collector.role],
    ['upload processor', () => stack.uploads.processor.role],
    ['search Lambda (profile writes with a management token)', () => stack.managementApi.functions.search.role],
  ])('the %s may only PutRecords on the stream', (_name, role) => {
    const statements = policyStatementsOf(logicalIdOf(role().node.findChild('DefaultPolicy')));
    const streamStatements = statements.filter((statement) => JSON.stringify(statement.Resource).includes(streamId));
    expect(streamStatements).toEqual([{ Effect: 'Allow', Action: 'kinesis:PutRecords', Resource: { 'Fn::GetAtt': [streamId, 'Arn'] } }]);
  });

  it('processes uploads when an object is created under incoming/', () => {
    template.hasResourceProperties('Custom::S3BucketNotifications', {
      BucketName: { Ref: logicalIdOf(stack.storage.buckets.uploads) },
      NotificationConfiguration: {
        LambdaFunctionConfigurations: [
          {
            Events: ['s3:ObjectCreated:*'],
            Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'incoming/' }] } },
            LambdaFunctionArn: { 'Fn::GetAtt': [logicalIdOf(stack.uploads.processor.function), 'Arn'] },
          },
        ],
      },
    });
  });

  it('lets the collector pre-sign uploads only under incoming/', () => {
    const uploadsId = logicalIdOf(stack.storage.buckets.uploads);
    const puts = policyStatementsOf(logicalIdOf(stack.collectorApi.collector.role.node.findChild('DefaultPolicy'))).filter((statement) =>
      [statement.Action].flat().includes('s3:PutObject'),
    );
    expect(puts).toEqual([{ Effect: 'Allow', Action: 's3:PutObject', Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [uploadsId, 'Arn'] }, '/incoming/*']] } }]);
  });
});

function consumerPolicyStatements() {
  return policyStatementsOf(logicalIdOf(stack.pipeline.consumer.role.node.findChild('DefaultPolicy')));
}

function policyStatementsOf(policyId: string): Array<{ Effect: string; Action: string | string[]; Resource: unknown }> {
  const policy = resources[policyId];
  expect(policy?.Type).toBe('AWS::IAM::Policy');
  return policy!.Properties.PolicyDocument.Statement;
}

it('grants no S3 action families (s3:GetObject*, s3:Abort*, ...) anywhere', () => {
  const actions = Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy')
    .flatMap((policy) =>
      (policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[] }>).flatMap((statement) => [statement.Action].flat()),
    );
  expect(actions).toContain('s3:PutObject');
  expect(actions.filter((action) => action.startsWith('s3:') && action.includes('*'))).toEqual([]);
});
