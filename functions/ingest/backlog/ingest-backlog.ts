import type { IngestBacklog } from '../../../schemas/ingest-backlog';
import type { Operation } from '../../shared/http/handler';

/** What a deployment knows of its ingest backlog: records acknowledged and not yet consumed. */
export interface IngestBacklogProbe {
  backlog(): { readonly records: number; readonly oldestAgeMs: number | null; readonly limitMs: number };
}

/** Seconds a client is told to wait when the backlog is past its limit. */
export const BACKLOG_RETRY_AFTER_SECONDS = 5;

/** Whether a backlog is past its limit: its oldest record has waited longer than the limit. */
export const pastLimit = (backlog: ReturnType<IngestBacklogProbe['backlog']>): boolean => backlog.oldestAgeMs !== null && backlog.oldestAgeMs > backlog.limitMs;

/** The backlog as GET /~/ingest/backlog answers it. */
export function backlogAnswer(probe: IngestBacklogProbe | undefined): IngestBacklog {
  if (!probe) {
    return {
      measured: false,
      records: null,
      oldest_age_ms: null,
      limit_ms: null,
      accepting: true,
      note: "On AWS the stream scales on demand and is not bounded here; the consumer's lag is the Kinesis metric GetRecords.IteratorAgeMilliseconds of the ingest stream.",
    };
  }
  const backlog = probe.backlog();
  return {
    measured: true,
    records: backlog.records,
    oldest_age_ms: backlog.oldestAgeMs === null ? null : Math.round(backlog.oldestAgeMs),
    limit_ms: backlog.limitMs,
    accepting: !pastLimit(backlog),
    note: 'Records the collector acknowledged (journaled) that the consumer has not finished; past the limit the collector answers 503 with Retry-After.',
  };
}

export function ingestBacklogOperations(deps: { readonly ingestBacklog?: IngestBacklogProbe }): Record<string, Operation<unknown>> {
  return {
    async ingestBacklog() {
      return { status: 200, body: backlogAnswer(deps.ingestBacklog), headers: { 'cache-control': 'no-store' } };
    },
  };
}
