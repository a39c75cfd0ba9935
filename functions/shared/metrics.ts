/** Counters a component reports per invocation (CloudWatch EMF on AWS, a log line or nothing locally). */
export type MetricsSink = (values: Record<string, number>) => void;

export const noMetrics: MetricsSink = () => {};

/** CloudWatch Embedded Metric Format: a structured log line that CloudWatch turns into metrics. */
export function embeddedMetrics(namespace: string, dimensions: Record<string, string>): MetricsSink {
  return (values) => {
    console.log(
      JSON.stringify({
        _aws: {
          Timestamp: Date.now(),
          CloudWatchMetrics: [
            { Namespace: namespace, Dimensions: [Object.keys(dimensions)], Metrics: Object.keys(values).map((Name) => ({ Name, Unit: 'Count' })) },
          ],
        },
        ...dimensions,
        ...values,
      }),
    );
  };
}
