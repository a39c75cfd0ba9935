import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * An in-memory resources table for unit tests: GetItem by key, and the rate limiter's one
 * conditional update evaluated as DynamoDB does (`attribute_not_exists(#used) OR #used < :allowed`,
 * then ADD). The real table is exercised by the integration tests.
 */
export function fakeTable() {
  const items = new Map<string, Record<string, unknown>>();
  const id = (key: Record<string, unknown>) => `${key.pk}|${key.sk}`;
  let reads = 0;
  const client = {
    async send(command: unknown) {
      if (command instanceof GetCommand) {
        reads++;
        return { Item: items.get(id(command.input.Key!)) };
      }
      if (command instanceof UpdateCommand) {
        const { Key, ExpressionAttributeValues: v } = command.input;
        const item = items.get(id(Key!)) ?? { ...Key };
        const used = item.used as number | undefined;
        if (used !== undefined && !(used < (v![':allowed'] as number))) throw new ConditionalCheckFailedException({ message: 'condition', $metadata: {} });
        const next = { ...item, used: (used ?? 0) + (v![':one'] as number), expires_at: v![':exp'] };
        items.set(id(Key!), next);
        return { Attributes: { used: next.used, expires_at: next.expires_at } };
      }
      throw new Error(`unexpected command ${(command as object).constructor.name}`);
    },
  };
  return {
    client: client as unknown as DynamoDBDocumentClient,
    items,
    put: (item: Record<string, unknown> & { pk: string; sk: string }) => items.set(id(item), item),
    reads: () => reads,
  };
}
