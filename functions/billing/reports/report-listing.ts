import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryItems } from '../../shared/aws/query-pages';
import { decodeCursor, encodeCursor, groupFrom } from './report-codec';
import { MAX_WINDOW_MS, reportsPartition } from './report-keys';
import type { ListWindowsRequest, ReportTenant, WindowReports } from './report-types';

/**
 * Listing report windows: one Query over the time range (window starts sort by time), its items
 * grouped back into windows (a header and its shards), cut at whole windows so a cursor resumes
 * after the last complete one.
 */
/** Groups whose window overlaps [from, to), newest first by default, paged by an opaque cursor (ReportStore.listWindows). */
export async function listWindows(
  documents: DynamoDBDocumentClient,
  tableName: string,
  tenant: ReportTenant,
  request: ListWindowsRequest,
): Promise<{ windows: WindowReports[]; cursor?: string }> {
  const newestFirst = request.newestFirst ?? true;
  const maxWindows = request.maxWindows ?? 50;
  const lower = `W#${new Date(request.from.getTime() - MAX_WINDOW_MS).toISOString()}`;
  // Windows starting at `to` do not overlap [from, to); '#' sorts before every ISO digit continuation.
  const upper = `W#${request.to.toISOString()}`;
  const windows: WindowReports[] = [];
  let group: { prefix: string; items: Record<string, unknown>[] } | undefined;
  let lastCompleteSk: string | undefined;
  const flush = () => {
    if (!group) return;
    const header = group.items.find((item) => String(item['sk']).endsWith('#H'));
    const built = header ? groupFrom(header, group.items) : undefined;
    if (built && built.window.start < request.to && built.window.end > request.from) windows.push(built);
    lastCompleteSk = String(group.items[group.items.length - 1]!['sk']);
    group = undefined;
  };
  for await (const item of queryItems(documents, {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lower AND :upper',
    ...(request.meterId !== undefined ? { FilterExpression: 'meter_id = :meter' } : {}),
    ExpressionAttributeValues: {
      ':pk': reportsPartition(tenant),
      ':lower': lower,
      ':upper': upper,
      ...(request.meterId !== undefined ? { ':meter': request.meterId } : {}),
    },
    ScanIndexForward: !newestFirst,
    ...(request.cursor ? { ExclusiveStartKey: { pk: reportsPartition(tenant), sk: decodeCursor(request.cursor) } } : {}),
  })) {
    const sk = String(item['sk']);
    const itemPrefix = sk.endsWith('#H') ? sk.slice(0, -1) : sk.slice(0, sk.indexOf('#S#') + 1);
    if (group && group.prefix !== itemPrefix) {
      flush();
      if (windows.length >= maxWindows) return { windows, cursor: encodeCursor(lastCompleteSk!) };
    }
    if (!group) group = { prefix: itemPrefix, items: [] };
    group.items.push(item);
  }
  flush();
  return { windows: windows.slice(0, maxWindows), ...(windows.length > maxWindows && lastCompleteSk ? { cursor: encodeCursor(lastCompleteSk) } : {}) };
}
