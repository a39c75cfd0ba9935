import { Match } from 'aws-cdk-lib/assertions';
import { ExportWorkerEnv, parseEnv } from '../../functions/definitions/environment';
import type { ExportWorker } from '../../lib/export-worker';
import { logicalIdOf, synthesize, type Synthesized } from './synth';

/** The export worker: a Lambda on a one-minute schedule with the resources table, the exports bucket and the search domain. */

let synth: Synthesized;
beforeAll(() => {
  synth = synthesize();
});

const worker = () => (synth.stack.node.findChild('Exports') as ExportWorker).function;

test('an EventBridge rule invokes the worker every minute, without retries; a run may take 15 minutes', () => {
  const functionId = logicalIdOf(worker().function);
  synth.template.hasResourceProperties('AWS::Events::Rule', {
    ScheduleExpression: 'rate(1 minute)',
    Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [functionId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
  });
  const props = synth.resources[functionId]!.Properties;
  expect(props['Timeout']).toBe(900);
  const variables = props['Environment'].Variables as Record<string, unknown>;
  expect(Object.keys(variables).sort()).toEqual([
    'EXPORTS_BUCKET',
    'LOG_LEVEL',
    'OPENSEARCH_ENDPOINT',
    'OPENSEARCH_REPLICAS',
    'RESOURCES_TABLE',
    'SEARCH_BACKEND',
  ]);
  const placeholders = Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [name, typeof value === 'string' ? value : 'https://resolved-at-deploy.example']),
  );
  expect(() => parseEnv(ExportWorkerEnv, { ...placeholders, AWS_REGION: 'us-east-1' })).not.toThrow();
});

test('its role writes and deletes export parts and uses the resources table, nothing more of storage', () => {
  const statements: Array<{ Action: string | string[]; Resource: unknown }> =
    synth.resources[logicalIdOf(worker().role.node.findChild('DefaultPolicy'))]!.Properties.PolicyDocument.Statement;
  const on = (resource: { node: unknown }) =>
    statements
      .filter((s) => JSON.stringify(s.Resource).includes(`"${logicalIdOf(resource as never)}"`))
      .flatMap((s) => [s.Action].flat())
      .sort();
  expect(on(synth.stack.storage.buckets.exports)).toEqual(['s3:DeleteObject', 's3:ListBucket', 's3:PutObject']);
  expect(on(synth.stack.storage.tables.resources)).toEqual([
    'dynamodb:BatchWriteItem',
    'dynamodb:DeleteItem',
    'dynamodb:GetItem',
    'dynamodb:PutItem',
    'dynamodb:Query',
  ]);
  for (const key of ['billing', 'profiles', 'dedup'] as const) expect(on(synth.stack.storage.tables[key])).toEqual([]);
  for (const key of ['archive', 'uploads', 'profileDocuments', 'failedRecords'] as const) expect(on(synth.stack.storage.buckets[key])).toEqual([]);
});

test('the exports bucket expires parts a day after their retention, in case the worker missed any', () => {
  synth.template.hasResourceProperties('AWS::S3::Bucket', {
    LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ Id: 'expire-exports', ExpirationInDays: 8, Status: 'Enabled' })]) },
  });
});
