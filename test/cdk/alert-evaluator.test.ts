import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AlertEvaluatorEnv, parseEnv } from '../../functions/definitions/environment';
import { logicalIdOf, synthesize, type Synthesized } from './synth';

/** Alert evaluation: a Lambda on a one-minute EventBridge schedule, least privilege, sending through the email sender's SES setup. */

let synth: Synthesized;
beforeAll(() => {
  synth = synthesize();
});

const construct = () => synth.stack.node.findChild('Alerts').node.findChild('Evaluator');

test('an EventBridge rule invokes the evaluator every minute, without retries, and the run ends within the minute', () => {
  const functionId = logicalIdOf(construct().node.findChild('Function'));
  synth.template.hasResourceProperties('AWS::Events::Rule', {
    ScheduleExpression: 'rate(1 minute)',
    Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [functionId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
  });
  const props = synth.resources[functionId]!.Properties;
  expect(props['Timeout']).toBe(55);
  const variables = props['Environment'].Variables as Record<string, unknown>;
  expect(Object.keys(variables).sort()).toEqual([
    'LOG_LEVEL',
    'OPENSEARCH_ENDPOINT',
    'OPENSEARCH_REPLICAS',
    'RESOURCES_TABLE',
    'SEARCH_BACKEND',
    'SES_CONFIGURATION_SET',
  ]);
  const placeholders = Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [name, typeof value === 'string' ? value : 'https://resolved-at-deploy.example']),
  );
  expect(() => parseEnv(AlertEvaluatorEnv, { ...placeholders, AWS_REGION: 'us-east-1' })).not.toThrow();
});

test('its role may use the resources table (listed actions), the search domain and SES sending only', () => {
  const roleId = logicalIdOf(construct().node.findChild('Role'));
  const statements = Object.values(synth.resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && (r.Properties['Roles'] as unknown[]).some((ref) => JSON.stringify(ref) === JSON.stringify({ Ref: roleId })))
    .flatMap((p) => p.Properties['PolicyDocument'].Statement as { Action: string | string[]; Resource: unknown }[]);
  const actions = statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])).filter((a) => !a.startsWith('logs:') && !a.startsWith('xray:'));
  expect(actions.filter((a) => a.startsWith('dynamodb:')).sort()).toEqual(
    [
      'dynamodb:BatchGetItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ].sort(),
  );
  expect(actions.filter((a) => !a.startsWith('dynamodb:') && !a.startsWith('es:') && !a.startsWith('ses:'))).toEqual([]);
  const dynamoResources = JSON.stringify(statements.filter((s) => JSON.stringify(s.Action).includes('dynamodb:')).map((s) => s.Resource));
  expect(dynamoResources).toContain(logicalIdOf(synth.stack.storage.tables.resources));
  const domain = Object.values(synth.resources).find((r) => r.Type === 'AWS::OpenSearchService::Domain')!;
  expect(JSON.stringify(domain.Properties['AccessPolicies'])).toContain(roleId);
});

test('cdk-nag finds nothing in the construct', () => {
  const report = new AwsSolutionsChecks(synth.stack, { verbose: true }).validateScope(synth.stack);
  const mine = report.violations.flatMap((v) =>
    v.violatingResources.filter((r) => r.constructPath?.includes('/Alerts/')).map((r) => `${v.ruleName} at ${r.constructPath}`),
  );
  expect(mine).toEqual([]);
});
