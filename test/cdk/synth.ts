import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { UsageAnalyticsStack } from '../../lib/service-stack';

export interface SynthesizedResource {
  readonly Type: string;
  readonly Properties: Record<string, any>;
  readonly DependsOn?: string[];
  readonly DeletionPolicy?: string;
}

export interface Synthesized {
  readonly stack: UsageAnalyticsStack;
  readonly template: Template;
  /** The synthesized resources by logical id. */
  readonly resources: Record<string, SynthesizedResource>;
}

/**
 * Synthesises the service stack without esbuild bundling (the assertions are about the template,
 * and bundling all entries would take most of the test's time).
 */
export function synthesize(context: Record<string, unknown> = {}, stackName = 'UsageAnalytics'): Synthesized {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new UsageAnalyticsStack(app, stackName, { env: { account: '123456789012', region: 'us-east-1' } });
  const template = Template.fromStack(stack);
  return { stack, template, resources: template.toJSON().Resources };
}

/** The logical id of a construct's CloudFormation resource (an L2 construct's default child). */
export function logicalIdOf(construct: IConstruct): string {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  return Stack.of(construct).getLogicalId(element);
}
