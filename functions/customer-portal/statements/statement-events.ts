import { createHash } from 'node:crypto';
import { STATEMENT_EVENTS_PAGE } from '../../../schemas/billing/customer-statement';
import type { SearchRequest } from '../../../schemas/search-tree';
import type { MeterMetric } from '../../billing/run/run-meter';
import { csvCell } from '../../exports/export-encoding';
import { parseSearchRequest } from '../../search/dsl';
import type { SearchableIndex, SearchContext, SearchHit, TenantScope } from '../../search/port';
import { ValidationError } from '../../shared/errors';
import { billedEvents, type QuantityAsk } from '../usage/window-quantities';

/**
 * The events behind one line of a statement (a meter's usage of a subscription in a closed period):
 * the very events the billing run counts for it, in time order (ties by id), one CSV line each, so a
 * customer can match them against its own logs and add them up as the run does. The list is read a
 * page at a time, from a cursor, so a download of any length is a series of bounded answers; the
 * digest is over the same lines, read the same way.
 */

export const STATEMENT_EVENT_COLUMNS = ['transaction_id', 'time', 'window_start', 'name', 'quantity'] as const;
const HEADER = `${STATEMENT_EVENT_COLUMNS.join(',')}\n`;
/** Hits per search (the search API's page size). */
const HITS_PER_SEARCH = 1000;

export interface StatementEventsPage {
  readonly lines: string;
  readonly rows: number;
  /** The cursor after the page's last event; absent when the list ended with it. */
  readonly next?: string;
}

/** Where a read of the list runs: the tenant, the customer, the search index. */
export interface StatementEventSource {
  readonly index: SearchableIndex;
  readonly scope: TenantScope;
  readonly now: Date;
}

/** How many events the line counts (to decide whether the list is within the cap before reading it). */
export async function statementEventCount(source: StatementEventSource, ask: QuantityAsk): Promise<number> {
  const request = listRequest(ask, 0);
  return source.index.countMatching(contextOf(source, ask), request.query);
}

/** One page of the list: up to STATEMENT_EVENTS_PAGE lines after `after` (the header first on the first page). */
export async function statementEventsPage(
  source: StatementEventSource,
  ask: QuantityAsk,
  after?: string,
  pageLines: number = STATEMENT_EVENTS_PAGE,
): Promise<StatementEventsPage> {
  let cursor: unknown = after === undefined ? undefined : cursorOf(after);
  let lines = after === undefined ? HEADER : '';
  let rows = 0;
  const context = contextOf(source, ask);
  for (;;) {
    const size = Math.min(HITS_PER_SEARCH, pageLines - rows);
    // The first search may start from the caller's cursor: the backend checks its values against the sort.
    const page = await source.index.search(context, listRequest(ask, size, cursor)).catch((error: unknown) => {
      if (rows === 0 && after !== undefined && error instanceof ValidationError && error.details.some((d) => d.field.startsWith('search_after')))
        throw notACursor();
      throw error;
    });
    const hits = page.hits.hits;
    for (const hit of hits) lines += csvLine(eventLine(ask, hit, eventTime(hit.sort?.[0])));
    rows += hits.length;
    if (hits.length > 0) cursor = hits[hits.length - 1]!.sort;
    if (hits.length < size) return { lines, rows };
    if (rows >= pageLines) return { lines, rows, next: Buffer.from(JSON.stringify(cursor ?? [])).toString('base64url') };
  }
}

/** SHA-256 (hex) of the whole list, as its pages would be downloaded one after the other. */
export async function statementEventsDigest(
  source: StatementEventSource,
  ask: QuantityAsk,
  pageLines: number = STATEMENT_EVENTS_PAGE,
): Promise<{ digest: string; rows: number }> {
  const hash = createHash('sha256');
  let rows = 0;
  let after: string | undefined;
  do {
    const page = await statementEventsPage(source, ask, after, pageLines);
    hash.update(page.lines, 'utf8');
    rows += page.rows;
    after = page.next;
  } while (after !== undefined);
  return { digest: hash.digest('hex'), rows };
}

function contextOf(source: StatementEventSource, ask: QuantityAsk): SearchContext {
  return { scope: source.scope, kind: 'events', range: { from: ask.period.start, to: ask.period.end }, timeZone: 'UTC', now: source.now };
}

/** A page's search, through the DSL's own checks: a cursor of another length than the sort's (a forged `after`) is refused there. */
function listRequest(ask: QuantityAsk, size: number, cursor?: unknown): SearchRequest {
  const includes = ['transaction_id', 'request.verb', 'request.uri', 'action_name', ask.meter.metric.field];
  const body = { query: billedEvents(ask), size, sort: [{ time: 'asc' }], track_total_hits: false, _source: { includes } };
  try {
    return parseSearchRequest(cursor === undefined ? body : { ...body, search_after: cursor }, 'events', { timeZone: 'UTC' });
  } catch (error) {
    if (cursor !== undefined && error instanceof ValidationError) throw notACursor();
    throw error;
  }
}

const notACursor = () => new ValidationError('Invalid after: not a cursor of this list', [{ field: 'after', reason: 'is not the `next` of a page' }]);

function cursorOf(after: string): unknown {
  try {
    return JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    throw notACursor();
  }
}

const pathValue = (source: Record<string, unknown>, path: string): unknown =>
  path in source
    ? source[path]
    : path.split('.').reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), source);

/** An event as the statement lists it: what the customer can find in its logs, and what it counted. */
function eventLine(ask: QuantityAsk, hit: SearchHit, at: number): unknown[] {
  const source = hit._source ?? {};
  const { periodMs, metric } = ask.meter;
  const action = pathValue(source, 'action_name');
  const uri = pathValue(source, 'request.uri');
  const name = typeof action === 'string' ? action : [pathValue(source, 'request.verb'), uri].filter((part) => typeof part === 'string').join(' ');
  const windowStart = new Date(Math.floor(at / periodMs) * periodMs).toISOString();
  return [source['transaction_id'] ?? hit._id, new Date(at).toISOString(), windowStart, name, quantityOf(metric, pathValue(source, metric.field))];
}

/** What an event adds to its window: its value (sum), 1 if it has one (value_count), or the value counted once per window (cardinality). */
function quantityOf(metric: MeterMetric, value: unknown): unknown {
  const present = value !== undefined && value !== null && value !== '';
  if (metric.type === 'sum') return present ? value : (metric.missing ?? 0);
  if (metric.type === 'value_count') return present ? 1 : 0;
  return present ? value : '';
}

/** The event's time, from its sort value (the index's event time: epoch ms, or ISO text on some backends). */
function eventTime(sortValue: unknown): number {
  const at = typeof sortValue === 'number' ? sortValue : typeof sortValue === 'string' ? Date.parse(sortValue) : Number.NaN;
  if (!Number.isFinite(at)) throw new Error(`an event's sort value ${String(sortValue)} is not a time`);
  return at;
}

function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\n`;
}
