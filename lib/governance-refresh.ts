import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { tables } from '../functions/definitions/resources';
import type { SearchDomain } from './search-domain';
import { ServiceFunction } from './service-function';
import type { Storage } from './storage';
import { lambdaEnvironment, openSearchEnvironment, GovernanceRefreshEnv, settingVariables } from '../functions/definitions/environment';

export interface GovernanceRefreshProps {
  readonly storage: Storage;
  readonly search: SearchDomain;
  readonly logLevel: string;
  readonly logRetention: logs.RetentionDays;
  /** How often the schedule invokes the refresh (purges, retention, every app with rules). Default: 1 minute. */
  readonly every?: Duration;
  /**
   * How often, within each invocation, the apps with rules are refreshed again (GOVERNANCE_REFRESH_SECONDS):
   * what bounds how late a crossed quota bites. Default 10 s; CDK context `governanceRefreshSeconds`.
   */
  readonly refreshSeconds?: number;
}

/**
 * The scheduled governance refresh: an EventBridge rule invokes a Lambda that recomputes the cohort
 * membership of every app with governance rules (what SDKs read from GET /v1/config), because
 * profiles enter and leave cohorts without any management call. EventBridge's shortest rate is a
 * minute, so the Lambda refreshes those apps again every `refreshSeconds` until its timeout nears:
 * quotas bite within seconds, at the price of the Lambda running most of each minute while any app
 * has rules (docs/governance.md gives the cost).
 */
export class GovernanceRefresh extends Construct {
  readonly function: ServiceFunction;
  readonly schedule: events.Rule;

  constructor(scope: Construct, id: string, props: GovernanceRefreshProps) {
    super(scope, id);
    const every = props.every ?? Duration.minutes(1);

    this.function = new ServiceFunction(this, 'Refresh', {
      entry: 'functions/entries/governance-refresh.ts',
      description: 'governance refresh: cohort membership of rules for the SDK config',
      memorySize: 512,
      // Shorter than the schedule, so runs do not pile up behind a slow one.
      timeout: Duration.seconds(Math.max(10, Math.min(every.toSeconds() - 5, 900))),
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      environment: {
        ...lambdaEnvironment(GovernanceRefreshEnv, {
          ...openSearchEnvironment(props.search),
          [tables.resources.envVar]: props.storage.tables.resources.tableName,
          [settingVariables.governanceRefreshSeconds]: String(props.refreshSeconds ?? 10),
        }),
      },
    });
    // Reads rules, cohorts, apps and the registries (governed, retaining); writes the snapshot, its chunks, the app's hash and the registries.
    props.storage.tables.resources.grant(
      this.function.function,
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
    );
    // Membership is a search over the profile indexes; data retention deletes expired events (a delete-by-query task).
    props.search.grantHttpAccess(this.function.role);

    this.schedule = new events.Rule(this, 'Schedule', {
      description: 'Recompute governance rule membership of every app with rules',
      schedule: events.Schedule.rate(every),
      // A missed run is superseded by the next one: no retries.
      targets: [new targets.LambdaFunction(this.function.function, { retryAttempts: 0 })],
    });
  }
}
