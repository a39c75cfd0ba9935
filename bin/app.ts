import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { UsageAnalyticsStack } from '../lib/service-stack';

// The CDK app: `npx cdk synth` / `npx cdk deploy` (cdk.json runs this file with tsx).
// `-c stackName=...` deploys a second copy beside the first; other settings: lib/service-stack.ts.
const app = new App();
const stackName: unknown = app.node.tryGetContext('stackName');

new UsageAnalyticsStack(app, typeof stackName === 'string' && stackName !== '' ? stackName : 'UsageAnalytics', {
  description: 'Usage analytics and usage-based billing service: collector, ingest pipeline, search, management API',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

// Every synth is checked against the AWS Solutions rules and fails on any finding that is neither
// fixed nor acknowledged with a reason (Validations.of(construct).acknowledge in lib/).
Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true }));
