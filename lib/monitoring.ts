import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/**
 * The consumer's count of items it gave up on (after retries; they go to the failed-records
 * bucket), published as CloudWatch EMF: namespace, metric name and dimension must match here and
 * in the consumer.
 */
export const FAILED_ITEMS_METRIC = {
  namespace: 'UsageAnalytics/Ingest',
  metricName: 'FailedItems',
  dimensions: { Service: 'ingest-consumer' },
} as const;

/**
 * Reports of a billing run that ended `failed` (a provider refused them, or their retries ran out),
 * published as CloudWatch EMF by the billing run's Lambda entry (functions/entries/billing-run.ts).
 */
export const FAILED_REPORTS_METRIC = {
  namespace: 'UsageAnalytics/Billing',
  metricName: 'FailedReports',
  dimensions: { Service: 'billing-run' },
} as const;

/** What the billing alarms watch: the run's Lambda and its dead-letter queue. */
export interface BillingMonitoringTargets {
  readonly function: lambda.IFunction;
  readonly deadLetterQueue: sqs.IQueue;
}

export interface MonitoringProps {
  readonly consumer: lambda.IFunction;
  readonly collectorApi: apigw.IHttpApi;
  /** The scheduled billing run; without it there are no billing alarms. */
  readonly billing?: BillingMonitoringTargets;
  /** Where alarms notify; without it they only change state in the console. */
  readonly alarmTopic?: sns.ITopic;
}

/**
 * Alarms on the ingest path (the stream falling behind, the consumer failing, data set aside, the
 * collector erroring) and on billing (the run failing, invocations dead-lettered, reports failing).
 */
export class Monitoring extends Construct {
  readonly alarms: cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const period = Duration.minutes(5);

    this.alarms = [
      new cloudwatch.Alarm(this, 'ConsumerIteratorAge', {
        alarmDescription:
          'The ingest consumer is more than a minute behind the stream: events are searchable late, and records near their max age risk the failed-records bucket.',
        metric: props.consumer.metric('IteratorAge', { statistic: cloudwatch.Stats.MAXIMUM, period, unit: cloudwatch.Unit.MILLISECONDS }),
        threshold: 60_000,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      new cloudwatch.Alarm(this, 'ConsumerErrors', {
        alarmDescription: 'The ingest consumer threw instead of reporting item failures: whole batches are being retried and bisected.',
        metric: props.consumer.metricErrors({ statistic: cloudwatch.Stats.SUM, period }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      new cloudwatch.Alarm(this, 'FailedRecords', {
        alarmDescription: 'The ingest consumer gave up on items after its retries; their records are in the failed-records bucket for replay.',
        metric: new cloudwatch.Metric({ ...FAILED_ITEMS_METRIC, statistic: cloudwatch.Stats.SUM, period }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      new cloudwatch.Alarm(this, 'FailedBatchDeliveryFailures', {
        alarmDescription: 'Lambda could not write a failed batch to the failed-records bucket: those records are lost.',
        metric: props.consumer.metric('DestinationDeliveryFailures', { statistic: cloudwatch.Stats.SUM, period }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      new cloudwatch.Alarm(this, 'Collector5xx', {
        alarmDescription: 'The collector answers 5xx (503 when the stream refuses records): SDKs retry, but sustained errors mean lost ingestion capacity.',
        metric: props.collectorApi.metricServerError({ statistic: cloudwatch.Stats.SUM, period }),
        threshold: 5,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    ];
    if (props.billing) this.alarms.push(...this.billingAlarms(props.billing, period));

    if (props.alarmTopic) {
      const notify = new actions.SnsAction(props.alarmTopic);
      for (const alarm of this.alarms) {
        alarm.addAlarmAction(notify);
        alarm.addOkAction(notify);
      }
    }
  }

  private billingAlarms(billing: BillingMonitoringTargets, period: Duration): cloudwatch.Alarm[] {
    return [
      new cloudwatch.Alarm(this, 'BillingRunErrors', {
        alarmDescription: 'The billing run threw (or timed out): meter windows are reported late until a run succeeds; the next run resumes from its cursor.',
        metric: billing.function.metricErrors({ statistic: cloudwatch.Stats.SUM, period }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      new cloudwatch.Alarm(this, 'BillingDeadLetters', {
        alarmDescription: 'Billing run invocations failed or were dropped and landed in its dead-letter queue: read the messages, then purge the queue.',
        metric: billing.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ statistic: cloudwatch.Stats.MAXIMUM, period }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      new cloudwatch.Alarm(this, 'BillingFailedReports', {
        alarmDescription:
          'A billing provider refused usage reports (or their retries ran out): those subscriptions are not billed until the report is fixed; see GET /v1/~/billing/reports?status=failed.',
        metric: new cloudwatch.Metric({ ...FAILED_REPORTS_METRIC, statistic: cloudwatch.Stats.SUM, period }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    ];
  }
}
