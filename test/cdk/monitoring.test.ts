import { FAILED_ITEMS_METRIC } from '../../lib/monitoring';
import { logicalIdOf, synthesize } from './synth';

const { stack, template, resources } = synthesize();
const consumerId = logicalIdOf(stack.pipeline.consumer.function);

function alarm(id: string) {
  const alarmResource = resources[logicalIdOf(stack.monitoring.node.findChild(id))];
  expect(alarmResource?.Type).toBe('AWS::CloudWatch::Alarm');
  return alarmResource!.Properties;
}

describe('ingest alarms', () => {
  it('alarms when the consumer falls more than a minute behind (max iterator age over 5 minutes)', () => {
    expect(alarm('ConsumerIteratorAge')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: consumerId } }],
      Statistic: 'Maximum',
      Period: 300,
      Threshold: 60000,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it('alarms on any consumer error', () => {
    expect(alarm('ConsumerErrors')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: consumerId } }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('alarms on items the consumer gave up on, from its EMF metric', () => {
    expect(FAILED_ITEMS_METRIC).toEqual({ namespace: 'UsageAnalytics/Ingest', metricName: 'FailedItems', dimensions: { Service: 'ingest-consumer' } });
    expect(alarm('FailedRecords')).toMatchObject({
      Namespace: 'UsageAnalytics/Ingest',
      MetricName: 'FailedItems',
      Dimensions: [{ Name: 'Service', Value: 'ingest-consumer' }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('alarms when a failed batch could not be delivered to the failed-records bucket', () => {
    expect(alarm('FailedBatchDeliveryFailures')).toMatchObject({
      MetricName: 'DestinationDeliveryFailures',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: consumerId } }],
      Threshold: 1,
    });
  });

  it('alarms on collector 5xx answers', () => {
    expect(alarm('Collector5xx')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: [{ Name: 'ApiId', Value: { Ref: logicalIdOf(stack.collectorApi.http.api) } }],
      Statistic: 'Sum',
    });
  });

  it('has no actions unless an alarm topic is configured', () => {
    // Five ingest alarms (this file) and three billing run alarms (billing-run.test.ts).
    template.resourceCountIs('AWS::CloudWatch::Alarm', 8);
    for (const resource of Object.values(resources).filter((r) => r.Type === 'AWS::CloudWatch::Alarm')) {
      expect(resource.Properties.AlarmActions).toBeUndefined();
    }
  });
});

it('notifies an existing SNS topic given as context', () => {
  const topicArn = 'arn:aws:sns:us-east-1:123456789012:ops-alarms';
  const { resources: withTopic } = synthesize({ alarmTopicArn: topicArn });
  const alarms = Object.values(withTopic).filter((r) => r.Type === 'AWS::CloudWatch::Alarm');
  expect(alarms).toHaveLength(8);
  for (const resource of alarms) {
    expect(resource.Properties.AlarmActions).toEqual([topicArn]);
    expect(resource.Properties.OKActions).toEqual([topicArn]);
  }
});
