import { buckets, ingestStream, tables } from '../../functions/definitions/resources';
import type { ServiceFunction } from '../../lib/service-function';
import type { IConstruct } from 'constructs';
import { EmailSenderEnv, ManagementApiEnv, parseEnv, SearchApiEnv, SharedViewApiEnv } from '../../functions/definitions/environment';
import { logicalIdOf, synthesize } from './synth';

const { stack, resources } = synthesize();

const serviceFunctions: Array<[string, ServiceFunction, string[]]> = [
  ['collector', stack.collectorApi.collector, [ingestStream.envVar, tables.resources.envVar, buckets.uploads.envVar]],
  [
    'consumer',
    stack.pipeline.consumer,
    [
      tables.dedup.envVar,
      tables.profiles.envVar,
      buckets.profileDocuments.envVar,
      tables.billing.envVar,
      tables.resources.envVar,
      buckets.archive.envVar,
      buckets.failedRecords.envVar,
      'SEARCH_BACKEND',
      'OPENSEARCH_ENDPOINT',
      'OPENSEARCH_REPLICAS',
      'GEO_IP_DATABASE',
    ],
  ],
  ['upload processor', stack.uploads.processor, [ingestStream.envVar, tables.resources.envVar, buckets.uploads.envVar]],
  [
    'search',
    stack.managementApi.functions.search,
    [
      tables.profiles.envVar,
      buckets.profileDocuments.envVar,
      tables.resources.envVar,
      ingestStream.envVar,
      'SEARCH_BACKEND',
      'OPENSEARCH_ENDPOINT',
      'OPENSEARCH_REPLICAS',
      'TOKEN_SIGNING_SECRET_ARN',
    ],
  ],
  [
    'management',
    stack.managementApi.functions.management,
    [
      tables.resources.envVar,
      tables.billing.envVar,
      buckets.exports.envVar,
      'SEARCH_BACKEND',
      'OPENSEARCH_ENDPOINT',
      'OPENSEARCH_REPLICAS',
      'TOKEN_SIGNING_SECRET_ARN',
      'SES_CONFIGURATION_SET',
      // Providers' webhooks: the apps' connections, and the stream synced profiles and a replacement's events take.
      'BILLING_PROVIDERS_SECRET_ARN',
      ingestStream.envVar,
      // A replacement's events with a caller's transaction id are checked against the dedup claims.
      tables.dedup.envVar,
    ],
  ],
  [
    'email sender',
    stack.emails.function,
    [
      tables.resources.envVar,
      'SEARCH_BACKEND',
      'OPENSEARCH_ENDPOINT',
      'OPENSEARCH_REPLICAS',
      'TOKEN_SIGNING_SECRET_ARN',
      'PUBLIC_BASE_URL',
      'SES_CONFIGURATION_SET',
    ],
  ],
  [
    'shared-views',
    stack.managementApi.functions['shared-views'],
    [tables.resources.envVar, tables.billing.envVar, 'SEARCH_BACKEND', 'OPENSEARCH_ENDPOINT', 'OPENSEARCH_REPLICAS', 'TOKEN_SIGNING_SECRET_ARN'],
  ],
];

it('loads source maps only when the context asks for them (they cost each cold start 20-30 ms of module init)', () => {
  expect(resources[logicalIdOf(stack.collectorApi.collector.function)]!.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
  const withMaps = synthesize({ lambdaSourceMaps: 'true' });
  expect(withMaps.resources[logicalIdOf(withMaps.stack.collectorApi.collector.function)]!.Properties.Environment.Variables.NODE_OPTIONS).toBe(
    '--enable-source-maps',
  );
});

describe.each(serviceFunctions)('%s Lambda', (_name, service, settings) => {
  const fn = resources[logicalIdOf(service.function)]!;

  it('runs Node 22 on arm64 with X-Ray tracing and without reserved concurrency', () => {
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Handler: 'index.handler', TracingConfig: { Mode: 'Active' } });
    expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  it('logs to its own log group with a retention', () => {
    const logGroupId = logicalIdOf(service.logGroup);
    expect(fn.Properties.LoggingConfig).toEqual({ LogGroup: { Ref: logGroupId } });
    expect(resources[logGroupId]!.Properties.RetentionInDays).toBe(30);
  });

  it('receives exactly its settings, under the names of the shared definitions', () => {
    expect(Object.keys(fn.Properties.Environment.Variables).sort()).toEqual([...settings, 'LOG_LEVEL'].sort());
    expect(fn.Properties.Environment.Variables.LOG_LEVEL).toBe('info');
  });

  it('has a role of its own without AWS managed policies', () => {
    const role = resources[logicalIdOf(service.role)]!;
    expect(fn.Properties.Role).toEqual({ 'Fn::GetAtt': [logicalIdOf(service.role), 'Arn'] });
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  });
});

it('points the search backends at the OpenSearch domain over HTTPS', () => {
  const endpoint = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalIdOf(stack.search.domain), 'DomainEndpoint'] }]] };
  for (const service of [
    stack.pipeline.consumer,
    stack.managementApi.functions.search,
    stack.managementApi.functions['shared-views'],
    stack.managementApi.functions.management,
  ]) {
    const variables = resources[logicalIdOf(service.function)]!.Properties.Environment.Variables;
    expect(variables.SEARCH_BACKEND).toBe('opensearch');
    expect(variables.OPENSEARCH_ENDPOINT).toEqual(endpoint);
  }
});

it('takes the log level from context', () => {
  const { stack: debugStack, resources: debugResources } = synthesize({ logLevel: 'debug' });
  expect(debugResources[logicalIdOf(debugStack.pipeline.consumer.function)]!.Properties.Environment.Variables.LOG_LEVEL).toBe('debug');
});

describe.each([
  ['search', () => stack.managementApi.functions.search, SearchApiEnv],
  ['management', () => stack.managementApi.functions.management, ManagementApiEnv],
  ['shared-views', () => stack.managementApi.functions['shared-views'], SharedViewApiEnv],
  ['email sender', () => stack.emails.function, EmailSenderEnv],
] as const)('%s Lambda environment', (_name, service, schema) => {
  it('is one its entry accepts at cold start (the env schema parses it)', () => {
    const variables = resources[logicalIdOf(service().function)]!.Properties.Environment.Variables as Record<string, unknown>;
    // Deploy-time values (table names, ARNs, the domain endpoint) are CloudFormation tokens here.
    const placeholders = Object.fromEntries(
      Object.entries(variables).map(([name, value]) => [name, typeof value === 'string' ? value : 'https://resolved-at-deploy.example']),
    );
    expect(() => parseEnv(schema, { ...placeholders, AWS_REGION: 'us-east-1' })).not.toThrow();
  });
});

describe('management Lambda permissions', () => {
  const statementsOf = (service: ServiceFunction): Array<{ Action: string | string[]; Resource: unknown }> =>
    resources[logicalIdOf(service.role.node.findChild('DefaultPolicy'))]!.Properties.PolicyDocument.Statement;
  const statements = statementsOf(stack.managementApi.functions.management);
  const tableIdsIn = (resource: unknown) =>
    Object.entries(stack.storage.tables)
      .filter(([, table]) => JSON.stringify(resource).includes(`"${logicalIdOf(table)}"`))
      .map(([key]) => key);

  it('reads and writes the resources and billing tables, reads dedup claims, and touches no other table', () => {
    const touched = new Set(statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:'))).flatMap((s) => tableIdsIn(s.Resource)));
    expect([...touched].sort()).toEqual(['billing', 'dedup', 'resources']);
    // A replacement's events: which transaction ids are claimed already, read only.
    expect(statements.filter((s) => tableIdsIn(s.Resource).includes('dedup')).flatMap((s) => [s.Action].flat())).toEqual(['dynamodb:BatchGetItem']);
    for (const key of ['resources', 'billing'] as const) {
      const actions = statements.filter((s) => tableIdsIn(s.Resource).includes(key)).flatMap((s) => [s.Action].flat());
      expect(actions).toEqual(
        expect.arrayContaining([
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:DeleteItem',
          'dynamodb:Query',
          'dynamodb:BatchWriteItem',
        ]),
      );
    }
  });

  it("reads the billing run's providers secret and puts records on the ingest stream, for providers' webhooks and replacements", () => {
    const secretId = logicalIdOf(stack.billingRun.providersSecret);
    const onSecret = statements.filter((s) => JSON.stringify(s.Resource).includes(`"${secretId}"`)).flatMap((s) => [s.Action].flat());
    expect(onSecret.sort()).toEqual(['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue']);
    const streamId = logicalIdOf(stack.pipeline.stream);
    const onStream = statements.filter((s) => JSON.stringify(s.Resource).includes(`"${streamId}"`)).flatMap((s) => [s.Action].flat());
    expect(onStream).toEqual(['kinesis:PutRecords']);
  });

  it('signs download URLs of export parts and deletes them, and nothing else in the exports bucket', () => {
    const bucketId = logicalIdOf(stack.storage.buckets.exports);
    const onExports = statements.filter((s) => JSON.stringify(s.Resource).includes(`"${bucketId}"`));
    expect(onExports.flatMap((s) => [s.Action].flat()).sort()).toEqual(['s3:DeleteObject', 's3:GetObject', 's3:ListBucket']);
  });

  it('reads the token signing secret and calls the search domain over HTTP', () => {
    const secretId = logicalIdOf(stack.managementApi.tokenSigningSecret);
    expect(statements).toContainEqual(
      expect.objectContaining({ Action: expect.arrayContaining(['secretsmanager:GetSecretValue']), Resource: { Ref: secretId } }),
    );
    // The domain's resource policy names the roles that may call it.
    const domain = resources[logicalIdOf(stack.search.domain)]!;
    expect(JSON.stringify(domain.Properties.AccessPolicies)).toContain(
      JSON.stringify({ 'Fn::GetAtt': [logicalIdOf(stack.managementApi.functions.management.role), 'Arn'] }),
    );
  });
});

describe('shared-views Lambda permissions (it answers anyone holding a link)', () => {
  const statements: Array<{ Action: string | string[]; Resource: unknown }> =
    resources[logicalIdOf(stack.managementApi.functions['shared-views'].role.node.findChild('DefaultPolicy'))]!.Properties.PolicyDocument.Statement;
  const actions = statements.flatMap((s) => [s.Action].flat());

  const onTable = (table: IConstruct) =>
    statements
      .filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')) && JSON.stringify(s.Resource).includes(`"${logicalIdOf(table)}"`))
      .flatMap((s) => [s.Action].flat())
      .sort();

  it('reads and writes items of the resources table (spend caps, the rate), only reads the billing table, and touches nothing else', () => {
    const onTables = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
    expect(onTables.flatMap((s) => [s.Action].flat()).length).toBe(
      onTable(stack.storage.tables.resources).length + onTable(stack.storage.tables.billing).length,
    );
    expect(onTable(stack.storage.tables.resources)).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    expect(onTable(stack.storage.tables.billing)).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query']);
    expect(actions.filter((a) => /^(s3|kinesis|sqs|lambda):/.test(a))).toEqual([]);
  });

  it('reads the token signing secret and may call the search domain', () => {
    expect(statements).toContainEqual(
      expect.objectContaining({
        Action: expect.arrayContaining(['secretsmanager:GetSecretValue']),
        Resource: { Ref: logicalIdOf(stack.managementApi.tokenSigningSecret) },
      }),
    );
    const domain = resources[logicalIdOf(stack.search.domain)]!;
    expect(JSON.stringify(domain.Properties.AccessPolicies)).toContain(
      JSON.stringify({ 'Fn::GetAtt': [logicalIdOf(stack.managementApi.functions['shared-views'].role), 'Arn'] }),
    );
  });
});
