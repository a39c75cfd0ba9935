/**
 * The event stream's filters and the search request they become: a bool filter of term clauses,
 * plus a query-string clause for anything typed in the query bar (`field:value` forms).
 */
export interface EventFilters {
  /** Relative (`-1h`) or ISO start of the window. */
  readonly from: string;
  /** `now` or an ISO end. */
  readonly to: string;
  readonly status?: string;
  readonly verb?: string;
  readonly route?: string;
  readonly userId?: string;
  readonly companyId?: string;
  /** Query-bar text, e.g. `request.verb:POST response.status:500`. */
  readonly text?: string;
  /** Voided events are left out unless asked for: beside the others, or alone. */
  readonly voided?: VoidedEvents;
}

export type VoidedEvents = 'include' | 'only';

const isVoidedEvents = (value: string | null): value is VoidedEvents => value === 'include' || value === 'only';

export const PAGE_SIZE = 50;

/** The sort that pages the stream: newest first, ties broken by id so search_after never skips one. */
export const STREAM_SORT = [{ 'request.time': { order: 'desc' } }, { _id: { order: 'desc' } }] as const;

export function streamQuery(filters: EventFilters): Record<string, unknown> {
  const filter: Record<string, unknown>[] = [];
  const term = (field: string, value: string | undefined) => {
    if (value !== undefined && value.trim() !== '') filter.push({ term: { [field]: value.trim() } });
  };
  if (filters.status?.trim()) {
    const status = Number(filters.status);
    if (Number.isInteger(status)) filter.push({ term: { 'response.status': status } });
    else if (/^[1-5]xx$/i.test(filters.status.trim())) {
      const base = Number(filters.status.trim()[0]) * 100;
      filter.push({ range: { 'response.status': { gte: base, lt: base + 100 } } });
    }
  }
  term('request.verb.raw', filters.verb?.toUpperCase());
  term('request.route.raw', filters.route);
  term('user_id.raw', filters.userId);
  term('company_id.raw', filters.companyId);
  if (filters.text?.trim()) filter.push({ query_string: { query: filters.text.trim() } });
  return filter.length === 0 ? { match_all: {} } : { bool: { filter } };
}

/** The search body of one page of the stream; `after` is the last hit's sort values of the page before. */
export function streamBody(filters: EventFilters, after?: readonly unknown[]): Record<string, unknown> {
  return { query: streamQuery(filters), sort: STREAM_SORT, size: PAGE_SIZE, ...(after ? { search_after: after } : {}) };
}

/** The filters a URL's search params describe (the stream's state lives in its URL, so it can be shared). */
export function filtersFromParams(params: URLSearchParams): EventFilters {
  const optional = (name: string) => params.get(name) ?? undefined;
  const voided = params.get('voided');
  return {
    from: params.get('from') ?? '-24h',
    to: params.get('to') ?? 'now',
    status: optional('status'),
    verb: optional('verb'),
    route: optional('route'),
    userId: optional('user_id'),
    companyId: optional('company_id'),
    text: optional('q'),
    voided: isVoidedEvents(voided) ? voided : undefined,
  };
}

export function paramsFromFilters(filters: EventFilters): URLSearchParams {
  const params = new URLSearchParams();
  const set = (name: string, value: string | undefined) => {
    if (value !== undefined && value !== '') params.set(name, value);
  };
  set('from', filters.from === '-24h' ? undefined : filters.from);
  set('to', filters.to === 'now' ? undefined : filters.to);
  set('status', filters.status);
  set('verb', filters.verb);
  set('route', filters.route);
  set('user_id', filters.userId);
  set('company_id', filters.companyId);
  set('q', filters.text);
  set('voided', filters.voided);
  return params;
}
