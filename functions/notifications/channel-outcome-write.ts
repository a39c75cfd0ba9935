import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChannelOutcome, ChannelStatus } from './channel-outcomes';

/**
 * Moves one channel of a stored notification (an item with a `channels` map) from `from` to
 * `outcome`: false when another run changed that channel first (deliverToChannels' conditional write).
 */
export async function writeChannelOutcome(
  documents: DynamoDBDocumentClient,
  tableName: string,
  key: { pk: string; sk: string },
  channel: string,
  from: ChannelStatus,
  outcome: ChannelOutcome,
): Promise<boolean> {
  try {
    await documents.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET channels.#c = :outcome',
        ConditionExpression: 'channels.#c.#s = :from',
        ExpressionAttributeNames: { '#c': channel, '#s': 'status' },
        ExpressionAttributeValues: { ':outcome': outcome, ':from': from },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
