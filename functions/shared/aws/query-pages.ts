import { paginateQuery, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

export type QueriedItem = Record<string, unknown>;

/** A query as callers write it; an `ExclusiveStartKey` is where it starts (a caller's cursor), after which the helper pages. */
export type QueryInput = QueryCommandInput;

/**
 * The items a query matches, one by one in key order, read a page at a time through the SDK's
 * paginator (it follows LastEvaluatedKey). Leaving the loop early stops reading: no page is
 * requested that the caller does not reach.
 */
export async function* queryItems(documents: DynamoDBDocumentClient, input: QueryInput): AsyncGenerator<QueriedItem> {
  for await (const items of queryPages(documents, input)) yield* items;
}

/** The same, a page of items at a time: for callers that act on a page at once (one batch read per page). */
export async function* queryPages(documents: DynamoDBDocumentClient, input: QueryInput): AsyncGenerator<QueriedItem[]> {
  // The paginator writes the paging key into its input: each query gets its own copy.
  for await (const page of paginateQuery({ client: documents }, { ...input })) yield page.Items ?? [];
}

/** Every item a query matches, in key order. */
export async function queryAll(documents: DynamoDBDocumentClient, input: QueryInput): Promise<QueriedItem[]> {
  const items: QueriedItem[] = [];
  for await (const item of queryItems(documents, input)) items.push(item);
  return items;
}
