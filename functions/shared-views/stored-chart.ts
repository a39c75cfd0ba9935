import type { SharedTimeRange } from '../../schemas/resources/shared-view';
import type { StoredDocument } from '../resources/resource-store';
import { parseFunnelBody, parseRetentionBody } from '../search/analyses/parse-analyses';
import { parseRequestRange } from '../search/dates/request-range';
import { parseSearchRequest } from '../search/dsl';
import type { CustomerBound, SearchableIndex, SearchContext, TenantScope } from '../search/port';
import { withinQueryBudget, type QueryBudgetDeps } from '../search/query-budget';

export interface StoredChartDeps extends QueryBudgetDeps {
  readonly index: SearchableIndex;
  readonly ready: () => Promise<void>;
}

/** A term every event the chart counts must carry (a template's dynamic field bound to the viewer's value). */
export interface RequiredTerm {
  readonly field: string;
  readonly value: string;
}

/**
 * Runs a workspace's stored query (chart.es_query, chart.funnel_query or the retention query) over
 * one allowed range, as the search, funnel or retention endpoint would, under the owning org's query
 * budget. Required terms are added as filters around every query the chart holds (each funnel step,
 * both retention events), so a template shows only the events of the values bound to its viewer;
 * a customer bound to the read is applied by the engine itself, beneath every query and aggregation.
 */
export async function runStoredChart(
  deps: StoredChartDeps,
  input: {
    scope: TenantScope;
    workspace: StoredDocument;
    range: SharedTimeRange;
    timeZone: string;
    now: Date;
    disconnected?: AbortSignal;
    required?: readonly RequiredTerm[];
    /** A customer token's reads: the engine confines every query of the chart to this customer. */
    customer?: CustomerBound;
  },
) {
  const { scope, range, timeZone, now } = input;
  const window = parseRequestRange({ from: range.from, to: range.to, time_zone: timeZone }, now);
  const context: SearchContext = {
    scope,
    kind: 'events',
    range: { from: window.from, to: window.to },
    timeZone,
    now,
    ...(input.customer ? { customer: input.customer } : {}),
  };
  await deps.ready();
  const chart = (input.workspace['chart'] ?? {}) as Record<string, unknown>;
  const retention = (chart['view_elements'] as Record<string, unknown> | undefined)?.['retention_query'];
  const base = { range, time_zone: timeZone };
  const narrow = narrowing(input.required ?? []);
  const budgeted = <T>(query: (within: SearchContext) => Promise<T>) =>
    withinQueryBudget(deps, scope.org_id, input.disconnected, (signal) => query({ ...context, signal }));
  if (chart['funnel_query'] !== undefined) {
    const funnel = parseFunnelBody(narrowFunnel(chart['funnel_query'], narrow));
    return { query: 'funnel' as const, ...base, answer: await budgeted((within) => deps.index.funnel(within, funnel)) };
  }
  if (retention !== undefined) {
    const parsed = parseRetentionBody(narrowRetention(retention, narrow));
    return { query: 'retention' as const, ...base, answer: await budgeted((within) => deps.index.retention(within, parsed)) };
  }
  const body = (chart['es_query'] ?? { size: 0, query: { match_all: {} } }) as Record<string, unknown>;
  const narrowed = input.required?.length ? { ...body, query: narrow(body['query']) } : body;
  const search = parseSearchRequest(narrowed, 'events', { timeZone });
  return { query: 'search' as const, ...base, answer: await budgeted((within) => deps.index.search(within, search)) };
}

type Narrow = (query: unknown) => unknown;

/** A query wrapped so it also requires each term (an absent query counts as match_all); no terms, the query as it is. */
function narrowing(required: readonly RequiredTerm[]): Narrow {
  if (required.length === 0) return (query) => query;
  const filter = required.map(({ field, value }) => ({ term: { [field]: value } }));
  return (query) => ({ bool: { must: [query ?? { match_all: {} }], filter } });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function narrowFunnel(body: unknown, narrow: Narrow): unknown {
  if (!isObject(body) || !Array.isArray(body['steps'])) return body;
  return { ...body, steps: body['steps'].map((step: unknown) => (isObject(step) ? { ...step, query: narrow(step['query']) } : step)) };
}

function narrowRetention(body: unknown, narrow: Narrow): unknown {
  if (!isObject(body)) return body;
  return { ...body, first_event: narrow(body['first_event']), return_event: narrow(body['return_event']) };
}
