import { useIngestBacklog } from '../api/apps';
import { QueryState } from '../../../components/query-state';

/** How far searches lag behind what the collector acknowledged, and whether it accepts more. */
export function IngestBacklog() {
  const backlog = useIngestBacklog();
  if (!backlog.isSuccess) return <QueryState query={backlog} loading="Reading the ingest backlog…" />;
  const b = backlog.data;
  if (!b.measured) return <p>{b.note}</p>;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return (
    <div role="status" aria-label="Ingest backlog">
      <p>
        {b.records === 0 || b.oldest_age_ms === null
          ? 'Everything the collector acknowledged is searchable.'
          : `${(b.records ?? 0).toLocaleString()} acknowledged record${b.records === 1 ? '' : 's'} (up to 500 events each) not yet searchable; the oldest waited ${seconds(b.oldest_age_ms)}.`}
        {b.limit_ms !== null && ` Past ${seconds(b.limit_ms)} the collector answers 503 and SDKs retry.`}
      </p>
      {!b.accepting && <p className="error-message">The collector is refusing new data until the backlog drains.</p>}
    </div>
  );
}
