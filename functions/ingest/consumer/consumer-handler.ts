import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { createConsumer, type ConsumerDeps } from './consume';

export type ConsumerHandler = (event: KinesisStreamEvent) => Promise<KinesisStreamBatchResponse>;

/**
 * The consumer Lambda: Kinesis batch in, ReportBatchItemFailures out. A thrown error fails the whole
 * batch, which the event source bisects and retries.
 */
export function createConsumerHandler(deps: ConsumerDeps): ConsumerHandler {
  const consume = createConsumer(deps);
  return async (event) => {
    const records = event.Records.map((r) => ({
      sequenceNumber: r.kinesis.sequenceNumber,
      partitionKey: r.kinesis.partitionKey,
      data: Buffer.from(r.kinesis.data, 'base64'),
    }));
    const { failedSequenceNumbers } = await consume(records);
    return { batchItemFailures: failedSequenceNumbers.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}
