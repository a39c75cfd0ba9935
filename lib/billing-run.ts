import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kinesis from 'aws-cdk-lib/aws-kinesis';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ingestStream, tables } from '../functions/definitions/resources';
import type { SearchDomain } from './search-domain';
import { ServiceFunction } from './service-function';
import type { Storage } from './storage';
import { lambdaEnvironment, openSearchEnvironment, settingVariables, BillingRunEnv } from '../functions/definitions/environment';

/** V8 settings of the billing run wherever it runs (Lambda, `npm run billing`, the local runtime, the bench). */
export const BILLING_NODE_OPTIONS = '--max-semi-space-size=64';

export interface BillingRunProps {
  readonly storage: Storage;
  readonly search: SearchDomain;
  readonly logLevel: string;
  readonly logRetention: logs.RetentionDays;
  /** The provider credentials secret on stack deletion. */
  readonly removalPolicy: RemovalPolicy;
  /** How often the run is invoked. Default: 5 minutes. */
  readonly every?: Duration;
  /**
   * How long one run keeps taking new windows (BILLING_TIME_BUDGET_MS). Default: one minute less
   * than the schedule, so a run normally ends before the next tick instead of making it wait.
   */
  readonly runBudget?: Duration;
  /**
   * Reserved concurrency of the run (context `billingReservedConcurrency`). Off by default: new and
   * sandbox accounts have a concurrency quota too low to reserve from, and `cdk deploy` would fail.
   * Runs never need it to be correct: each meter is billed under a lease, so two overlapping runs
   * split the meters instead of billing one twice.
   */
  readonly reservedConcurrency?: number;
  /** The ingest stream: companies and subscriptions synced in from providers are written to it. */
  readonly stream: kinesis.IStream;
}

/**
 * The scheduled billing run: an EventBridge rule invokes one Lambda at a time (reserved concurrency 1)
 * that reports closed meter windows to the providers; failed invocations land in an encrypted DLQ;
 * the provider connections live in a Secrets Manager secret the run reads at cold start.
 */
export class BillingRun extends Construct {
  readonly function: ServiceFunction;
  readonly schedule: events.Rule;
  readonly deadLetterQueue: sqs.Queue;
  /** {"connections": [...], "apps": {...}}: functions/billing/run/provider-registry.ts. */
  readonly providersSecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: BillingRunProps) {
    super(scope, id);
    const every = props.every ?? Duration.minutes(5);
    const runBudget = props.runBudget ?? Duration.seconds(Math.max(60, every.toSeconds() - 60));

    this.providersSecret = new secretsmanager.Secret(this, 'ProvidersSecret', {
      description: 'Billing provider connections (Stripe, Chargebee, Recurly, Zuora) of the billing run, as one JSON document',
      // An empty document is valid (no provider connections: webhook channels only); operators put the real one.
      secretObjectValue: {},
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.providersSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        "The secret holds third-party provider API keys, which are rotated in the providers' dashboards and then put here; there is no rotation Lambda that could issue them.",
    });

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the billing run (failed invocations and undeliverable schedule events).',
    });

    this.function = new ServiceFunction(this, 'Run', {
      entry: 'functions/entries/billing-run.ts',
      description: 'billing run: meter usage reported to billing providers',
      memorySize: 1024,
      // The Lambda maximum: a window being priced and delivered when the budget runs out may finish.
      timeout: Duration.minutes(15),
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      environment: {
        ...lambdaEnvironment(BillingRunEnv, {
          ...openSearchEnvironment(props.search),
          [tables.resources.envVar]: props.storage.tables.resources.tableName,
          [tables.billing.envVar]: props.storage.tables.billing.tableName,
          [ingestStream.envVar]: props.stream.streamName,
          [settingVariables.billingProvidersSecretArn]: this.providersSecret.secretArn,
          [settingVariables.billingTimeBudgetMs]: String(runBudget.toMilliseconds()),
        }),
        // The run keeps thousands of reports alive between evaluation and delivery; a larger young
        // generation means fewer scavenges copying them (measured: ~7% more reports per second).
        NODE_OPTIONS: BILLING_NODE_OPTIONS,
      },
    });
    const fn = this.function.function;
    // ServiceFunction does not expose the setting, hence the CloudFormation property.
    if (props.reservedConcurrency !== undefined) (fn.node.defaultChild as lambda.CfnFunction).reservedConcurrentExecutions = props.reservedConcurrency;
    // No retries: the next tick resumes from the stored cursor, and a retry would only be throttled behind it.
    // What fails (errors, ticks dropped after an hour of waiting) goes to the DLQ and alarms.
    fn.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.hours(1), onFailure: new SqsDestination(this.deadLetterQueue) });

    // Resources table: the scan for apps with meters, meters and prices (Query), channels (BatchGetItem);
    // the sync in from providers writes catalog plans and prices and its own progress (single and
    // transactional writes, each conditioned on the app's existence).
    props.storage.tables.resources.grant(
      fn,
      'dynamodb:Scan',
      'dynamodb:Query',
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:ConditionCheckItem',
      'dynamodb:BatchWriteItem',
    );
    // Synced companies and subscriptions go onto the ingest stream, as the collector's do: PutRecords only.
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['kinesis:PutRecords'], resources: [props.stream.streamArn] }));
    // Billing table: reports, balances, late-window marks, cursors and leases (single, batch and transactional writes).
    props.storage.tables.billing.grant(
      fn,
      'dynamodb:GetItem',
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
    );
    this.providersSecret.grantRead(fn);
    // Usage is aggregated and subscriptions are read from the search indexes.
    props.search.grantHttpAccess(this.function.role);

    this.schedule = new events.Rule(this, 'Schedule', {
      description: 'Run usage billing: report closed meter windows to the billing providers',
      schedule: events.Schedule.rate(every),
      // A tick EventBridge could not deliver is superseded by the next one; it is recorded in the DLQ.
      targets: [new targets.LambdaFunction(fn, { retryAttempts: 0, deadLetterQueue: this.deadLetterQueue })],
    });
  }
}
