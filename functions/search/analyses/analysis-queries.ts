import type { AnalysisActor } from '../../../schemas/event-analyses';
import type { QueryNode } from '../../../schemas/search-tree';

/**
 * Funnels and retention as the search port takes them: parsed queries and resolved settings. The
 * request bodies are schemas/event-analyses.ts; parse-analyses.ts turns one into the other.
 */

export interface FunnelQuery {
  readonly steps: readonly { readonly name: string; readonly query: QueryNode }[];
  readonly by: AnalysisActor;
  /** Later steps must happen at most this long after the actor entered (its first step's event). */
  readonly windowMs: number;
}

export type RetentionInterval = 'day' | 'week' | 'month';

export interface RetentionQuery {
  readonly first: QueryNode;
  readonly returning: QueryNode;
  readonly by: AnalysisActor;
  readonly interval: RetentionInterval;
  readonly periods: number;
}
