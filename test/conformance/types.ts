import type { IndexKind } from '../../functions/search/port';

/**
 * A conformance case: documents, a request body exactly as a caller sends it, and the answer
 * OpenSearch gives for them with our mapping. Expectations are written from OpenSearch's
 * documented semantics, never copied from what an implementation returned.
 */

/** One document as the consumer would hand it to the index. */
export interface CaseDocument {
  readonly id: string;
  /** Event time, or the profile's last update; ISO 8601 UTC. */
  readonly time: string;
  /** Events: the normalised payload (the stream item's `data`); profiles: the merged profile. */
  readonly data: Readonly<Record<string, unknown>>;
  /** Events only: an action rather than an API call. */
  readonly action?: boolean;
  /** Events only: received more than 5 minutes after it happened (indexed as `is_late`). */
  readonly late?: boolean;
}

/** A hit as expected: `_source` and `sort` are compared only when the expectation names them. */
export interface ExpectedHit {
  readonly _id: string;
  /** `undefined` here means "no _source at all" (`_source: false`). */
  readonly _source?: Record<string, unknown> | undefined;
  readonly sort?: readonly unknown[];
}

export interface HitsExpectation {
  readonly total?: number;
  /** The ids of `hits.hits`, in order. */
  readonly ids?: readonly string[];
  readonly hits?: readonly ExpectedHit[];
  /** The whole `aggregations` object (top_hits hits are compared as `_id` and `_source`). */
  readonly aggregations?: Record<string, unknown>;
}

/** Follow `search_after` from page to page (the body holds `size` and `sort`) until a page is empty. */
export interface PagingExpectation {
  readonly pages: { readonly ids: readonly string[] };
}

/** A 400 whose details name the member (dotted path, array positions as numbers: `sort.0._script`). */
export interface RejectionExpectation {
  readonly status: 400;
  /** The offending member; a detail naming it or a member inside it satisfies the case. Several: any of them. */
  readonly member: string | readonly string[];
}

export type Expectation = HitsExpectation | PagingExpectation | RejectionExpectation;

export type Area =
  | 'query'
  | 'bool'
  | 'query_string'
  | 'text'
  | 'arrays'
  | 'missing'
  | 'numbers'
  | 'dates'
  | 'sort'
  | 'paging'
  | 'totals'
  | 'source'
  | 'window'
  | 'post_filter'
  | 'terms'
  | 'metrics'
  | 'date_histogram'
  | 'histogram'
  | 'range_agg'
  | 'filters'
  | 'nesting'
  | 'profiles'
  | 'enrichment'
  | 'rejections';

export interface ConformanceCase {
  readonly name: string;
  readonly area: Area;
  /** Default: events. */
  readonly kind?: IndexKind;
  readonly documents: readonly CaseDocument[];
  /** The request body as JSON, untyped on purpose: it goes through the parser like a caller's. */
  readonly body: unknown;
  /** The request's `from`/`to` window (events), ISO 8601. */
  readonly window?: { readonly from?: string; readonly to?: string };
  /** The request's `time_zone`; default UTC. */
  readonly timeZone?: string;
  /** The request's "now"; default FIXED_NOW. */
  readonly now?: string;
  readonly expect: Expectation;
}

/** Every case runs at this instant, so date math is reproducible. */
export const FIXED_NOW = '2026-03-15T10:30:00.000Z';

export const isRejection = (expectation: Expectation): expectation is RejectionExpectation => 'status' in expectation;
export const isPaging = (expectation: Expectation): expectation is PagingExpectation => 'pages' in expectation;
