import { logicalIdOf, synthesize } from './synth';

const { stack, resources } = synthesize();
const statementsOf = (role: unknown): Array<{ Action: string | string[]; Resource: unknown }> =>
  resources[logicalIdOf((role as { node: { findChild(id: string): never } }).node.findChild('DefaultPolicy'))]!.Properties.PolicyDocument.Statement;

describe('behavioural emails on AWS', () => {
  const fn = resources[logicalIdOf(stack.emails.function.function)]!;

  it('runs the sender every 15 minutes without retries (a missed run is caught up by the next)', () => {
    const rule = resources[logicalIdOf(stack.emails.schedule)]!;
    expect(rule.Properties.ScheduleExpression).toBe('rate(15 minutes)');
    expect(rule.Properties.Targets).toEqual([
      expect.objectContaining({ Arn: { 'Fn::GetAtt': [logicalIdOf(stack.emails.function.function), 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } }),
    ]);
  });

  it('hands SES bounces and complaints to the same Lambda through a configuration set and EventBridge', () => {
    const rule = resources[logicalIdOf(stack.emails.feedback)]!;
    expect(rule.Properties.EventPattern).toEqual({ source: ['aws.ses'], 'detail-type': ['Email Bounced', 'Email Complained'] });
    const destinations = Object.values(resources).filter((r) => r.Type === 'AWS::SES::ConfigurationSetEventDestination');
    expect(destinations).toHaveLength(1);
    expect(destinations[0]!.Properties.EventDestination).toMatchObject({ Enabled: true, MatchingEventTypes: expect.arrayContaining(['bounce', 'complaint']) });
    expect(JSON.stringify(destinations[0]!.Properties.EventDestination.EventBridgeDestination)).toContain('event-bus/default');
    expect(fn.Properties.Environment.Variables.SES_CONFIGURATION_SET).toEqual({ Ref: logicalIdOf(stack.emails.configurationSet) });
    expect(JSON.stringify(fn.Properties.Environment.Variables.PUBLIC_BASE_URL)).toContain(logicalIdOf(stack.managementApi.http.api));
  });

  it('may send through SES and write only the resources table: claims, outcomes, unsubscribes, cohort members and notifications', () => {
    const statements = statementsOf(stack.emails.function.role);
    const ses = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('ses:')));
    expect(ses.flatMap((s) => [s.Action].flat()).sort()).toEqual(['ses:SendEmail', 'ses:SendRawEmail']);
    expect(JSON.stringify(ses[0]!.Resource)).toContain(':configuration-set/');
    const tables = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
    expect(tables.every((s) => JSON.stringify(s.Resource).includes(`"${logicalIdOf(stack.storage.tables.resources)}"`))).toBe(true);
    expect(tables.flatMap((s) => [s.Action].flat())).not.toContain('dynamodb:DeleteTable');
    expect(statements.flatMap((s) => [s.Action].flat()).filter((a) => /^(s3|kinesis|sqs):/.test(a))).toEqual([]);
  });

  it('confines sending to the emailIdentity the context names, and outputs its DKIM records', () => {
    const { stack: withIdentity, resources: all, template } = synthesize({ emailIdentity: 'mail.example.com' });
    const identity = Object.values(all).filter((r) => r.Type === 'AWS::SES::EmailIdentity');
    expect(identity).toHaveLength(1);
    expect(identity[0]!.Properties.EmailIdentity).toBe('mail.example.com');
    expect(all[logicalIdOf(withIdentity.emails.function.function)]!.Properties.Environment.Variables.NOTIFICATIONS_FROM).toBe('notifications@mail.example.com');
    const statements = all[logicalIdOf(withIdentity.emails.function.role.node.findChild('DefaultPolicy'))]!.Properties.PolicyDocument.Statement as Array<{
      Action: string | string[];
      Resource: unknown;
    }>;
    const resourcesOfSend = JSON.stringify(statements.filter((s) => [s.Action].flat().includes('ses:SendEmail')).map((s) => s.Resource));
    expect(resourcesOfSend).toContain('identity/');
    expect(resourcesOfSend).not.toContain('identity/*');
    expect(Object.keys(template.toJSON().Outputs).filter((name) => name.startsWith('EmailDkimRecord'))).toHaveLength(3);
  });

  it('lets the management Lambda send test messages through the same identity and configuration set', () => {
    const statements = statementsOf(stack.managementApi.functions.management.role);
    expect(statements.filter((s) => [s.Action].flat().includes('ses:SendRawEmail'))).toHaveLength(1);
  });
});
