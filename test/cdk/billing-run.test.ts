import * as fs from 'node:fs';
import * as path from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ProviderConnectionsDocument } from '../../functions/billing/run/provider-registry';
import { FAILED_REPORTS_METRIC } from '../../lib/monitoring';
import { BILLING_NODE_OPTIONS } from '../../lib/billing-run';
import { REPO_ROOT } from '../../lib/service-function';
import { BillingRunEnv, parseEnv } from '../../functions/definitions/environment';
import { logicalIdOf, synthesize, type Synthesized } from './synth';

/** The scheduled billing run: Lambda, schedule, DLQ, provider secret, least-privilege role, alarms. */

let synth: Synthesized;
beforeAll(() => {
  synth = synthesize();
});

const run = () => synth.stack.billingRun;
const functionId = () => logicalIdOf(run().function.function);
const functionProps = () => synth.resources[functionId()]!.Properties;

function roleStatements(): { Action: string | string[]; Resource: unknown }[] {
  const roleId = logicalIdOf(run().function.role);
  return Object.values(synth.resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && (r.Properties['Roles'] as unknown[]).some((ref) => JSON.stringify(ref) === JSON.stringify({ Ref: roleId })))
    .flatMap((p) => p.Properties['PolicyDocument'].Statement);
}

const actionsOn = (statements: { Action: string | string[]; Resource: unknown }[], logicalId: string) =>
  new Set(statements.filter((s) => JSON.stringify(s.Resource).includes(`"${logicalId}"`)).flatMap((s) => [s.Action].flat()));

describe('billing Lambda', () => {
  it('runs the billing entry for up to 15 minutes, reserving no concurrency unless asked (low-quota accounts could not deploy)', () => {
    expect(functionProps()).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 900 });
    expect(functionProps()['ReservedConcurrentExecutions']).toBeUndefined();
    const reserved = synthesize({ billingReservedConcurrency: '1' });
    expect(reserved.resources[logicalIdOf(reserved.stack.billingRun.function.function)]!.Properties['ReservedConcurrentExecutions']).toBe(1);
    expect(fs.existsSync(path.join(REPO_ROOT, 'functions/entries/billing-run.ts'))).toBe(true);
  });

  it('receives exactly the settings BillingRunEnv reads, and the schema accepts them', () => {
    const variables = functionProps()['Environment'].Variables as Record<string, unknown>;
    expect(Object.keys(variables).sort()).toEqual(
      [
        'BILLING_PROVIDERS_SECRET_ARN',
        'BILLING_TABLE',
        'BILLING_TIME_BUDGET_MS',
        'INGEST_STREAM_NAME',
        'LOG_LEVEL',
        'NODE_OPTIONS',
        'OPENSEARCH_ENDPOINT',
        'OPENSEARCH_REPLICAS',
        'RESOURCES_TABLE',
        'SEARCH_BACKEND',
      ].sort(),
    );
    // Every application setting is one the schema declares (NODE_OPTIONS is the runtime's).
    const declared = Object.keys(BillingRunEnv.shape);
    expect(Object.keys(variables).filter((name) => name !== 'NODE_OPTIONS' && !declared.includes(name))).toEqual([]);
    expect(variables['BILLING_PROVIDERS_SECRET_ARN']).toEqual({ Ref: logicalIdOf(run().providersSecret) });
    expect(variables['RESOURCES_TABLE']).toEqual({ Ref: logicalIdOf(synth.stack.storage.tables.resources) });
    expect(variables['BILLING_TABLE']).toEqual({ Ref: logicalIdOf(synth.stack.storage.tables.billing) });
    // Deploy-time values are CloudFormation tokens here; the entry's env schema must accept the rest.
    const placeholders = Object.fromEntries(
      Object.entries(variables).map(([name, value]) => [name, typeof value === 'string' ? value : 'https://resolved-at-deploy.example']),
    );
    const parsed = parseEnv(BillingRunEnv, { ...placeholders, AWS_REGION: 'us-east-1' });
    expect(parsed.SEARCH_BACKEND).toBe('opensearch');
    // The run stops taking windows a minute before the next tick, so ticks rarely wait behind it.
    expect(parsed.BILLING_TIME_BUDGET_MS).toBe(240_000);
    // Source maps as every function has them, plus the run's larger young generation.
    expect(variables['NODE_OPTIONS']).toBe(BILLING_NODE_OPTIONS);
  });

  it('sends failed asynchronous invocations, without retries, to the dead-letter queue', () => {
    synth.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: functionId() },
      MaximumRetryAttempts: 0,
      MaximumEventAgeInSeconds: 3600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [logicalIdOf(run().deadLetterQueue), 'Arn'] } } },
    });
    expect([...actionsOn(roleStatements(), logicalIdOf(run().deadLetterQueue))]).toEqual(expect.arrayContaining(['sqs:SendMessage']));
  });
});

test('an EventBridge rule invokes the billing Lambda every 5 minutes, without retries, dead-lettering what it cannot deliver', () => {
  synth.template.hasResourceProperties('AWS::Events::Rule', {
    ScheduleExpression: 'rate(5 minutes)',
    State: 'ENABLED',
    Targets: [
      Match.objectLike({
        Arn: { 'Fn::GetAtt': [functionId(), 'Arn'] },
        RetryPolicy: { MaximumRetryAttempts: 0 },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalIdOf(run().deadLetterQueue), 'Arn'] } },
      }),
    ],
  });
  synth.template.hasResourceProperties('AWS::Lambda::Permission', {
    Action: 'lambda:InvokeFunction',
    Principal: 'events.amazonaws.com',
    FunctionName: { 'Fn::GetAtt': [functionId(), 'Arn'] },
  });
});

test('the dead-letter queue is encrypted and refuses non-TLS access', () => {
  const queueId = logicalIdOf(run().deadLetterQueue);
  expect(synth.resources[queueId]!.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
  const policy = Object.values(synth.resources).find((r) => r.Type === 'AWS::SQS::QueuePolicy' && JSON.stringify(r.Properties['Queues']).includes(queueId))!;
  expect(policy.Properties['PolicyDocument'].Statement).toEqual(
    expect.arrayContaining([expect.objectContaining({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
  );
});

test('the provider secret starts as an empty document the run accepts, and only the run may read it', () => {
  const secret = synth.resources[logicalIdOf(run().providersSecret)]!;
  expect(secret.Type).toBe('AWS::SecretsManager::Secret');
  expect(secret.Properties['SecretString']).toBe('{}');
  expect(() => ProviderConnectionsDocument.parse(JSON.parse(secret.Properties['SecretString']))).not.toThrow();
  expect(secret.DeletionPolicy).toBe('Retain');
  expect([...actionsOn(roleStatements(), logicalIdOf(run().providersSecret))].sort()).toEqual([
    'secretsmanager:DescribeSecret',
    'secretsmanager:GetSecretValue',
  ]);
});

test('its role reads the resources table and writes synced catalog items there, reads and writes the billing table, puts synced profiles on the stream, and touches no other table', () => {
  const statements = roleStatements();
  const tables = synth.stack.storage.tables;
  expect(actionsOn(statements, logicalIdOf(tables.resources))).toEqual(
    new Set([
      'dynamodb:Scan',
      'dynamodb:Query',
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:BatchWriteItem',
    ]),
  );
  expect([...actionsOn(statements, logicalIdOf(synth.stack.pipeline.stream))]).toEqual(['kinesis:PutRecords']);
  expect(actionsOn(statements, logicalIdOf(tables.billing))).toEqual(
    new Set(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']),
  );
  for (const other of [tables.dedup, tables.profiles]) expect(actionsOn(statements, logicalIdOf(other)).size).toBe(0);
  const allActions = statements.flatMap((s) => [s.Action].flat());
  expect(allActions.filter((a) => !/^(logs|xray|dynamodb|secretsmanager|sqs):/.test(a))).toEqual(['kinesis:PutRecords']);
  // The domain's access policy names the role (usage aggregation and subscriptions are searches).
  const domain = Object.values(synth.resources).find((r) => r.Type === 'AWS::OpenSearchService::Domain')!;
  expect(JSON.stringify(domain.Properties['AccessPolicies'])).toContain(logicalIdOf(run().function.role));
});

describe('billing alarms', () => {
  const alarm = (id: string) => {
    const resource = synth.resources[logicalIdOf(synth.stack.monitoring.node.findChild(id))]!;
    expect(resource.Type).toBe('AWS::CloudWatch::Alarm');
    return resource.Properties;
  };

  it('alarms on any billing Lambda error', () => {
    expect(alarm('BillingRunErrors')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId() } }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('alarms on any message in the dead-letter queue', () => {
    expect(alarm('BillingDeadLetters')).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalIdOf(run().deadLetterQueue), 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('alarms on failed reports, from the EMF metric the Lambda entry publishes', () => {
    expect(FAILED_REPORTS_METRIC).toEqual({ namespace: 'UsageAnalytics/Billing', metricName: 'FailedReports', dimensions: { Service: 'billing-run' } });
    // The entry cannot import lib/ (it would bundle aws-cdk-lib), so it names the metric itself: the names must match.
    const entry = fs.readFileSync(path.join(REPO_ROOT, 'functions/entries/billing-run.ts'), 'utf8');
    expect(entry).toContain("embeddedMetrics('UsageAnalytics/Billing', { Service: 'billing-run' })");
    expect(entry).toMatch(/FailedReports: summary\.failed/);
    expect(alarm('BillingFailedReports')).toMatchObject({
      Namespace: 'UsageAnalytics/Billing',
      MetricName: 'FailedReports',
      Dimensions: [{ Name: 'Service', Value: 'billing-run' }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('notifies the alarm topic when one is configured', () => {
    const topicArn = 'arn:aws:sns:us-east-1:123456789012:ops-alarms';
    const { stack, resources } = synthesize({ alarmTopicArn: topicArn });
    for (const id of ['BillingRunErrors', 'BillingDeadLetters', 'BillingFailedReports']) {
      expect(resources[logicalIdOf(stack.monitoring.node.findChild(id))]!.Properties).toMatchObject({ AlarmActions: [topicArn], OKActions: [topicArn] });
    }
  });
});

test('cdk-nag finds nothing in the construct', () => {
  const report = new AwsSolutionsChecks(synth.stack, { verbose: true }).validateScope(synth.stack);
  const mine = report.violations.flatMap((v) =>
    v.violatingResources.filter((r) => r.constructPath?.includes('/BillingRun/')).map((r) => `${v.ruleName} at ${r.constructPath}`),
  );
  expect(mine).toEqual([]);
});
