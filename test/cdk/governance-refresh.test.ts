import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { GovernanceRefreshEnv, parseEnv } from '../../functions/definitions/environment';
import { logicalIdOf, synthesize, type Synthesized } from './synth';

/** The scheduled governance refresh: a Lambda on a one-minute EventBridge schedule, least privilege. */

let synth: Synthesized;
beforeAll(() => {
  synth = synthesize();
});

const refresh = () => synth.stack.node.findChild('GovernanceRefresh').node.findChild('Refresh').node.findChild('Function');

test('an EventBridge rule invokes the refresh Lambda every minute, without retries', () => {
  const functionId = logicalIdOf(refresh());
  synth.template.hasResourceProperties('AWS::Events::Rule', {
    ScheduleExpression: 'rate(1 minute)',
    State: 'ENABLED',
    Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [functionId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
  });
  synth.template.hasResourceProperties('AWS::Lambda::Permission', {
    Action: 'lambda:InvokeFunction',
    Principal: 'events.amazonaws.com',
    FunctionName: { 'Fn::GetAtt': [functionId, 'Arn'] },
  });
});

test('the Lambda runs the refresh entry against the resources table and the search domain, finishing within the minute', () => {
  const props = synth.resources[logicalIdOf(refresh())]!.Properties;
  expect(props['Timeout']).toBe(55);
  expect(Object.keys(props['Environment'].Variables).sort()).toEqual([
    'GOVERNANCE_REFRESH_SECONDS',
    'LOG_LEVEL',
    'OPENSEARCH_ENDPOINT',
    'OPENSEARCH_REPLICAS',
    'RESOURCES_TABLE',
    'SEARCH_BACKEND',
  ]);
  expect(props['Environment'].Variables.SEARCH_BACKEND).toBe('opensearch');
  // Within each scheduled minute, governed apps are refreshed again every 10 s: quotas bite within seconds.
  expect(props['Environment'].Variables.GOVERNANCE_REFRESH_SECONDS).toBe('10');
  const tuned = synthesize({ governanceRefreshSeconds: 30 });
  const tunedRefresh = tuned.stack.node.findChild('GovernanceRefresh').node.findChild('Refresh').node.findChild('Function');
  expect(tuned.resources[logicalIdOf(tunedRefresh)]!.Properties['Environment'].Variables.GOVERNANCE_REFRESH_SECONDS).toBe('30');
  // Deploy-time values are CloudFormation tokens here; the entry's env schema must accept the rest.
  const variables = props['Environment'].Variables as Record<string, unknown>;
  const placeholders = Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [name, typeof value === 'string' ? value : 'https://resolved-at-deploy.example']),
  );
  expect(() => parseEnv(GovernanceRefreshEnv, { ...placeholders, AWS_REGION: 'us-east-1' })).not.toThrow();
});

test('its role may use only the resources table (listed actions) and the search domain', () => {
  const role = synth.stack.node.findChild('GovernanceRefresh').node.findChild('Refresh').node.findChild('Role');
  const roleId = logicalIdOf(role);
  const policies = Object.values(synth.resources).filter(
    (r) => r.Type === 'AWS::IAM::Policy' && (r.Properties['Roles'] as unknown[]).some((ref) => JSON.stringify(ref) === JSON.stringify({ Ref: roleId })),
  );
  const statements = policies.flatMap((p) => p.Properties['PolicyDocument'].Statement as { Action: string | string[]; Resource: unknown }[]);
  const actions = statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])).filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:'));
  expect(new Set(actions)).toEqual(
    new Set([
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
    ]),
  );
  const dynamoResources = JSON.stringify(statements.filter((s) => JSON.stringify(s.Action).includes('dynamodb:')).map((s) => s.Resource));
  expect(dynamoResources).toContain(logicalIdOf(synth.stack.storage.tables.resources));
  for (const other of ['dedup', 'profiles', 'billing'] as const) {
    const table = (synth.stack.storage.tables as Record<string, unknown>)[other];
    if (table) expect(dynamoResources).not.toContain(logicalIdOf(table as never));
  }
  // The domain's access policy names the role (search over the profile indexes).
  const domain = Object.values(synth.resources).find((r) => r.Type === 'AWS::OpenSearchService::Domain')!;
  expect(JSON.stringify(domain.Properties['AccessPolicies'])).toContain(roleId);
});

test('cdk-nag finds nothing in the construct', () => {
  const report = new AwsSolutionsChecks(synth.stack, { verbose: true }).validateScope(synth.stack);
  const mine = report.violations.flatMap((v) =>
    v.violatingResources.filter((r) => r.constructPath?.includes('/GovernanceRefresh/')).map((r) => `${v.ruleName} at ${r.constructPath}`),
  );
  expect(mine).toEqual([]);
});
