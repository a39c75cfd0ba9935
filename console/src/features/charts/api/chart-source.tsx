import { createContext, useContext, type ReactNode } from 'react';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import type { components } from '../../../lib/api-schema';
import { funnelBody, retentionBody } from '../utils/analysis-spec';
import { chartBody, windowOf, type ChartSpec } from '../utils/chart-spec';

/** What the views read of a search answer (the count, the aggregations). */
export interface SearchAnswer {
  readonly hits: { readonly total: number };
  readonly aggregations?: Record<string, unknown>;
}
export type FunnelAnswer = components['schemas']['Funnel'];
export type RetentionAnswer = components['schemas']['Retention'];

/**
 * Where a chart's answers come from. Signed in: the chart's own query through the search API. In a
 * shared view: the workspace's stored query through its token (the viewer sends no query at all).
 */
export interface ChartSource {
  /** Part of every query key: answers of different sources are never mixed up in the cache. */
  readonly key: readonly unknown[];
  search(spec: ChartSpec): Promise<SearchAnswer>;
  funnel(spec: ChartSpec): Promise<FunnelAnswer>;
  retention(spec: ChartSpec): Promise<RetentionAnswer>;
}

/** A stored chart's answer as a shared view or a customer template gives it: which kind of query ran, and its answer. */
export type StoredAnswer =
  | { readonly query: 'search'; readonly answer: SearchAnswer }
  | { readonly query: 'funnel'; readonly answer: FunnelAnswer }
  | { readonly query: 'retention'; readonly answer: RetentionAnswer };

/**
 * The source of a chart whose query is stored server side (a shared view, a customer template): the
 * spec only says how to draw the answer; the viewer sends no query, so each kind asks for the same
 * answer and checks it is the kind it draws.
 */
export function storedChartSource(key: readonly unknown[], data: () => Promise<StoredAnswer>, noun: string): ChartSource {
  const mismatch = (wanted: string, got: string) => new Error(`this ${noun} draws a ${wanted} answer, and its workspace answered a ${got} query`);
  return {
    key,
    search: async () => {
      const stored = await data();
      if (stored.query !== 'search') throw mismatch('search', stored.query);
      return stored.answer;
    },
    funnel: async () => {
      const stored = await data();
      if (stored.query !== 'funnel') throw mismatch('funnel', stored.query);
      return stored.answer;
    },
    retention: async () => {
      const stored = await data();
      if (stored.query !== 'retention') throw mismatch('retention', stored.query);
      return stored.answer;
    },
  };
}

const ChartSourceContext = createContext<ChartSource | undefined>(undefined);

export function ChartSourceProvider({ source, children }: { source: ChartSource; children: ReactNode }) {
  return <ChartSourceContext.Provider value={source}>{children}</ChartSourceContext.Provider>;
}

/** The chart source of the page: a shared view's, or the signed-in search API. */
export function useChartSource(): ChartSource {
  const api = useApi();
  return (
    useContext(ChartSourceContext) ?? {
      key: ['signed-in'],
      search: async (spec) => dataOf(await api.POST('/search/~/search/events', { params: windowOf(spec), body: chartBody(spec) })),
      funnel: async (spec) => dataOf(await api.POST('/search/~/funnels/events', { params: windowOf(spec), body: funnelBody(spec.analysis) })),
      retention: async (spec) => dataOf(await api.POST('/search/~/retention/events', { params: windowOf(spec), body: retentionBody(spec.analysis) })),
    }
  );
}
