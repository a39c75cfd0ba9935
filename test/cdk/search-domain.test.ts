import type { ExportWorker } from '../../lib/export-worker';
import type { AlertEvaluator } from '../../lib/alert-evaluator';
import type { GovernanceRefresh } from '../../lib/governance-refresh';
import { logicalIdOf, synthesize } from './synth';

/** The default name: the stack name, then the first 8 hex digits of the stack's own id (new for every stack). */
const derivedName = (base: string) => ({
  'Fn::Join': ['-', [base, { 'Fn::Select': [0, { 'Fn::Split': ['-', { 'Fn::Select': [2, { 'Fn::Split': ['/', { Ref: 'AWS::StackId' }] }] }] }] }]],
});

describe('OpenSearch domain with the default context', () => {
  const { stack, template, resources } = synthesize();
  const domain = resources[logicalIdOf(stack.search.domain)]!;

  it('is a small OpenSearch 2.19 domain outside a VPC', () => {
    template.resourceCountIs('AWS::OpenSearchService::Domain', 1);
    expect(domain.Properties).toMatchObject({
      DomainName: derivedName('usageanalytics'),
      EngineVersion: 'OpenSearch_2.19',
      ClusterConfig: { InstanceType: 't3.small.search', InstanceCount: 1, DedicatedMasterEnabled: false, ZoneAwarenessEnabled: false },
      EBSOptions: { EBSEnabled: true, VolumeSize: 10, VolumeType: 'gp3' },
    });
    expect(domain.Properties.VPCOptions).toBeUndefined();
    expect(domain.DeletionPolicy).toBe('Retain');
  });

  it('encrypts in transit and at rest, HTTPS only with TLS 1.2 or later', () => {
    expect(domain.Properties).toMatchObject({
      DomainEndpointOptions: { EnforceHTTPS: true, TLSSecurityPolicy: 'Policy-Min-TLS-1-2-PFS-2023-10' },
      NodeToNodeEncryptionOptions: { Enabled: true },
      EncryptionAtRestOptions: { Enabled: true },
    });
    expect(domain.Properties.AdvancedSecurityOptions).toBeUndefined();
  });

  it('admits only the consumer, search, shared-views, management, governance refresh, export worker, alert evaluator, billing run and email sender Lambda roles, for HTTP calls', () => {
    expect(domain.Properties.AccessPolicies.Statement).toEqual([
      {
        Effect: 'Allow',
        Action: 'es:ESHttp*',
        Principal: {
          AWS: [
            { 'Fn::GetAtt': [logicalIdOf(stack.pipeline.consumer.role), 'Arn'] },
            { 'Fn::GetAtt': [logicalIdOf(stack.managementApi.functions.search.role), 'Arn'] },
            // Shared views run a shared workspace's stored query.
            { 'Fn::GetAtt': [logicalIdOf(stack.managementApi.functions['shared-views'].role), 'Arn'] },
            // Governance rules' cohort membership is a search over the profile indexes.
            { 'Fn::GetAtt': [logicalIdOf(stack.managementApi.functions.management.role), 'Arn'] },
            { 'Fn::GetAtt': [logicalIdOf((stack.node.findChild('GovernanceRefresh') as GovernanceRefresh).function.role), 'Arn'] },
            // Exports read through the search port.
            { 'Fn::GetAtt': [logicalIdOf((stack.node.findChild('Exports') as ExportWorker).function.role), 'Arn'] },
            // Behavioural emails: cohort members and dynamic fields.
            { 'Fn::GetAtt': [logicalIdOf(stack.emails.function.role), 'Arn'] },
            // Alerts measure metrics of events.
            { 'Fn::GetAtt': [logicalIdOf((stack.node.findChild('Alerts') as AlertEvaluator).function.role), 'Arn'] },
            // Meters are aggregations over the event index.
            { 'Fn::GetAtt': [logicalIdOf(stack.billingRun.function.role), 'Arn'] },
          ],
        },
        Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':es:us-east-1:123456789012:domain/', derivedName('usageanalytics'), '/*']] },
      },
    ]);
  });

  it('publishes slow search, slow index and application logs through a native log resource policy', () => {
    expect(Object.keys(domain.Properties.LogPublishingOptions).sort()).toEqual(['ES_APPLICATION_LOGS', 'INDEX_SLOW_LOGS', 'SEARCH_SLOW_LOGS']);
    template.resourceCountIs('AWS::Logs::ResourcePolicy', 1);
    const policyId = Object.keys(resources).find((id) => resources[id]!.Type === 'AWS::Logs::ResourcePolicy')!;
    expect(domain.DependsOn).toContain(policyId);
    // No custom resources: the domain's access and log policies are plain CloudFormation properties.
    expect(
      Object.values(resources)
        .filter((resource) => resource.Type.startsWith('Custom::'))
        .map((resource) => resource.Type),
    ).toEqual(['Custom::S3BucketNotifications']);
  });
});

describe('OpenSearch domain sized through context', () => {
  it('spreads several nodes over availability zones', () => {
    const { stack, resources } = synthesize({
      searchInstanceType: 'm7g.large.search',
      searchInstanceCount: '2',
      searchVolumeGiB: 50,
      searchDomainName: 'analytics-prod',
    });
    expect(resources[logicalIdOf(stack.search.domain)]!.Properties).toMatchObject({
      DomainName: 'analytics-prod',
      ClusterConfig: { InstanceType: 'm7g.large.search', InstanceCount: 2, ZoneAwarenessEnabled: true, ZoneAwarenessConfig: { AvailabilityZoneCount: 2 } },
      EBSOptions: { VolumeSize: 50 },
    });
  });

  it('tells every search Lambda to ask for no replica on one node and one replica on more (a one-node domain would stay yellow)', () => {
    for (const [nodes, replicas] of [
      [1, '0'],
      [2, '1'],
      [3, '1'],
    ] as const) {
      const { stack, resources } = synthesize({ searchInstanceCount: nodes });
      for (const fn of [
        stack.pipeline.consumer.function,
        stack.managementApi.functions.search.function,
        stack.managementApi.functions.management.function,
        stack.billingRun.function.function,
      ]) {
        expect(resources[logicalIdOf(fn)]!.Properties.Environment.Variables.OPENSEARCH_REPLICAS).toBe(replicas);
      }
    }
  });

  it('refuses a node count that cannot be spread evenly', () => {
    expect(() => synthesize({ searchInstanceCount: 5 })).toThrow(/cannot be spread evenly/);
  });

  it('derives a legal domain name from any stack name and its stack id (a redeploy after delete does not meet the retained domain), or takes one from context', () => {
    const { stack, resources } = synthesize({}, 'Usage-Analytics-Staging-Stack-2');
    const name = resources[logicalIdOf(stack.search.domain)]!.Properties.DomainName;
    expect(name).toEqual(derivedName('usage-analytics-sta'));
    // 19 characters, a hyphen and 8 hex digits: at most 28, a letter first.
    expect(`usage-analytics-sta-${'0'.repeat(8)}`).toMatch(/^[a-z][a-z0-9-]{2,27}$/);
    expect(() => synthesize({ searchDomainName: 'Bad_Name' })).toThrow(/search domain name/);
  });
});
