import type { StreamItem } from '../../schemas/stream-record';
import type { IndexDocument, IndexKind, TenantScope } from './port';
import { routeTemplate } from './route-templates';

/**
 * Builds the documents the search port indexes from what the consumer reads off the stream, and
 * states the rules every document must follow, so both adapters accept and refuse the same ones.
 */

export type EventItemKind = 'event' | 'action';
export type ProfileKind = Exclude<IndexKind, 'events'>;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Milliseconds since the epoch of an ISO 8601 date-time, or undefined for anything else. */
export function isoMillis(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ISO_DATE_TIME.test(value)) return undefined;
  const millis = Date.parse(value);
  return Number.isFinite(millis) ? millis : undefined;
}
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * The path of a URI without scheme, host, query string or fragment, kept as sent (no decoding or
 * dot-segment resolution), so the same URI always yields the same route template.
 */
export function routeOfUri(uri: string): string {
  const withoutOrigin = uri.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  const end = withoutOrigin.search(/[?#]/);
  const path = end === -1 ? withoutOrigin : withoutOrigin.slice(0, end);
  return path === '' ? '/' : path;
}

/**
 * An API call or action as indexed: the normalised payload plus what search needs to filter on. An
 * API call without a route named by its SDK gets the route template of its path (route-templates.ts),
 * from the app's own patterns first.
 */
export function eventDocument(scope: TenantScope, kind: EventItemKind, item: StreamItem, routePatterns: readonly string[] = []): IndexDocument {
  const data = item.data;
  const source: JsonObject = {
    ...data,
    org_id: scope.org_id,
    app_id: scope.app_id,
    event_type: kind === 'event' ? 'api_call' : 'action',
    received_at: item.received_at,
    is_late: item.late ?? false,
  };
  if (kind === 'event') {
    const request = data.request;
    if (isObject(request) && request.route === undefined && typeof request.uri === 'string') {
      source.request = { ...request, route: routeTemplate(routeOfUri(request.uri), routePatterns) };
    }
    const duration = durationMillis(request, data.response);
    if (duration !== undefined) source.duration_ms = duration;
  }
  return { kind: 'events', id: item.id, org_id: scope.org_id, app_id: scope.app_id, time: item.time, source };
}

function durationMillis(request: unknown, response: unknown): number | undefined {
  if (!isObject(request) || !isObject(response)) return undefined;
  const start = isoMillis(request.time);
  const end = isoMillis(response.time);
  return start === undefined || end === undefined ? undefined : end - start;
}

/** A merged user, company or subscription profile as indexed, at the version stored in DynamoDB. */
export function profileDocument(
  scope: TenantScope,
  kind: ProfileKind,
  id: string,
  merged: Record<string, unknown>,
  version: number,
  time: string,
): IndexDocument {
  return {
    kind,
    id,
    org_id: scope.org_id,
    app_id: scope.app_id,
    time,
    version,
    source: { ...merged, org_id: scope.org_id, app_id: scope.app_id },
  };
}

/**
 * Why a document can never be indexed, or undefined when it can. Both adapters report these as
 * non-retryable failures instead of sending them, so the two backends refuse exactly the same set.
 */
export function documentProblem(document: IndexDocument): string | undefined {
  if (document.id === '') return 'id is empty';
  if (document.org_id === '' || document.app_id === '') return 'org_id and app_id are required';
  if (document.source.org_id !== document.org_id || document.source.app_id !== document.app_id) {
    return 'source org_id/app_id differ from the document tenant';
  }
  const timeMs = isoMillis(document.time);
  if (timeMs === undefined) return `time is not an ISO 8601 date-time: ${String(document.time)}`;
  if (document.kind === 'events') {
    if (document.version !== undefined) return 'events are not versioned';
    // The collector dates every event by its request.time (the same text), and the DuckDB index
    // reads that field from the time column: an event dated otherwise would answer wrongly there.
    const request = document.source.request;
    const sameTime = isObject(request) && (request.time === document.time || isoMillis(request.time) === timeMs);
    if (!sameTime) return 'source request.time differs from the event time';
  } else if (document.version === undefined || !Number.isSafeInteger(document.version) || document.version < 0) {
    return 'profile documents need a non-negative integer version';
  }
  return undefined;
}
