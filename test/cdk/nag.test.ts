import { App, Stack, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { UsageAnalyticsStack } from '../../lib/service-stack';

function findings(stack: Stack): string[] {
  const report = new AwsSolutionsChecks(stack, { verbose: true }).validateScope(stack);
  return report.violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => `${violation.severity} ${violation.ruleName} at ${resource.constructPath}: ${violation.description}`),
  );
}

describe('cdk-nag AwsSolutions checks', () => {
  it('finds nothing unacknowledged in the service stack (errors and warnings alike)', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const stack = new UsageAnalyticsStack(app, 'UsageAnalytics', { env: { account: '123456789012', region: 'us-east-1' } });
    expect(findings(stack)).toEqual([]);
  });

  it('also passes with a multi-node search domain', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], searchInstanceCount: 2 } });
    const stack = new UsageAnalyticsStack(app, 'UsageAnalytics', { env: { account: '123456789012', region: 'us-east-1' } });
    expect(findings(stack)).toEqual([]);
  });

  it('reports unacknowledged findings (the check above is not vacuous)', () => {
    const stack = new Stack(new App(), 'Probe');
    new s3.Bucket(stack, 'Plain');
    expect(findings(stack)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^error AwsSolutions-S1 at Probe\/Plain\/Resource/), expect.stringMatching(/AwsSolutions-S10/)]),
    );
  });

  it('runs as a synthesis plugin that fails the synth on a finding, as bin/app.ts registers it', () => {
    const app = new App();
    const stack = new Stack(app, 'Probe');
    new s3.Bucket(stack, 'Plain');
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).toThrow(/AwsSolutions-S1/);
  });
});
