import { buckets, ingestStream, tables } from '../../functions/definitions/resources';
import type { ServiceFunction } from '../../lib/service-function';
import { logicalIdOf, synthesize } from './synth';

const { stack, resources } = synthesize();

const serviceFunctions: Array<[string, ServiceFunction, string[]]> = [
  ['collector', stack.collectorApi.collector, [ingestStream.envVar, tables.resources.envVar, buckets.uploads.envVar]],
  ['consumer', stack.pipeline.consumer, [tables.dedup.envVar, tables.profiles.envVar, buckets.archive.envVar, buckets.failedRecords.envVar, 'SEARCH_BACKEND', 'OPENSEARCH_ENDPOINT']],
  ['upload processor', stack.uploads.processor, [ingestStream.envVar, tables.resources.envVar, buckets.uploads.envVar]],
  ['search', stack.managementApi.functions.search, [tables.profiles.envVar, 'SEARCH_BACKEND', 'OPENSEARCH_ENDPOINT', 'TOKEN_SIGNING_SECRET_ARN']],
];

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
    expect(Object.keys(fn.Properties.Environment.Variables).sort()).toEqual([...settings, 'LOG_LEVEL', 'NODE_OPTIONS'].sort());
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
  for (const service of [stack.pipeline.consumer, stack.managementApi.functions.search]) {
    const variables = resources[logicalIdOf(service.function)]!.Properties.Environment.Variables;
    expect(variables.SEARCH_BACKEND).toBe('opensearch');
    expect(variables.OPENSEARCH_ENDPOINT).toEqual(endpoint);
  }
});

it('takes the log level from context', () => {
  const { stack: debugStack, resources: debugResources } = synthesize({ logLevel: 'debug' });
  expect(debugResources[logicalIdOf(debugStack.pipeline.consumer.function)]!.Properties.Environment.Variables.LOG_LEVEL).toBe('debug');
});
