import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { tables } from '../functions/definitions/resources';
import { AlertEvaluatorEnv, lambdaEnvironment, openSearchEnvironment, settingVariables } from '../functions/definitions/environment';
import type { EmailSender } from './email-sender';
import type { SearchDomain } from './search-domain';
import { ServiceFunction } from './service-function';
import type { Storage } from './storage';

export interface AlertEvaluatorProps {
  readonly storage: Storage;
  readonly search: SearchDomain;
  readonly logLevel: string;
  readonly logRetention: logs.RetentionDays;
  /** Alert emails go through the email sender's SES identity and configuration set. */
  readonly emails: EmailSender;
  /** NOTIFICATIONS_FROM: the address alert emails come from (none: email channels fail as not configured). */
  readonly notificationsFrom?: string;
  /** SLACK_WEBHOOK_HOSTS: comma-separated hosts besides Slack's own that alert Slack URLs may name. */
  readonly slackWebhookHosts?: string;
  /** How often due alerts are evaluated. Default: 1 minute (an alert's own interval is at least that). */
  readonly every?: Duration;
}

/**
 * Alerts on AWS: an EventBridge rule runs the evaluator Lambda every minute; it evaluates each alert
 * whose interval has passed and delivers what fired or resolved (SES, signed webhooks, Slack,
 * PagerDuty; public addresses only).
 */
export class AlertEvaluator extends Construct {
  readonly function: ServiceFunction;
  readonly schedule: events.Rule;

  constructor(scope: Construct, id: string, props: AlertEvaluatorProps) {
    super(scope, id);
    const every = props.every ?? Duration.minutes(1);
    this.function = new ServiceFunction(this, 'Evaluator', {
      entry: 'functions/entries/alert-evaluator.ts',
      description: 'alerts: evaluates due alert rules and delivers firings and resolves',
      memorySize: 512,
      // Shorter than the schedule, so runs do not pile up; a run that is cut is resumed by the next (windows and deliveries are claimed).
      timeout: Duration.seconds(Math.max(10, Math.min(every.toSeconds() - 5, 900))),
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      environment: {
        ...lambdaEnvironment(AlertEvaluatorEnv, {
          ...openSearchEnvironment(props.search),
          [tables.resources.envVar]: props.storage.tables.resources.tableName,
          [settingVariables.sesConfigurationSet]: props.emails.configurationSet.configurationSetName,
          ...(props.notificationsFrom ? { [settingVariables.notificationsFrom]: props.notificationsFrom } : {}),
          ...(props.slackWebhookHosts ? { [settingVariables.slackWebhookHosts]: props.slackWebhookHosts } : {}),
        }),
      },
    });
    // Rules, webhook channels and the registry (read); run claims, series states, events and their deliveries (conditional writes).
    props.storage.tables.resources.grant(
      this.function.function,
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:ConditionCheckItem',
    );
    // Metrics are searches over the events index.
    props.search.grantHttpAccess(this.function.role);
    props.emails.grantSend(this.function.role);
    this.schedule = new events.Rule(this, 'Schedule', {
      description: 'Evaluate due alert rules and deliver their notifications',
      schedule: events.Schedule.rate(every),
      // A missed run is caught up by the next: windows and deliveries are claimed, never repeated.
      targets: [new targets.LambdaFunction(this.function.function, { retryAttempts: 0 })],
    });
  }
}
