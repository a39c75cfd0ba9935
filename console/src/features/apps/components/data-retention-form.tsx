import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { QueryState } from '../../../components/query-state';
import { useDataRetention, useSaveDataRetention } from '../api/apps';

/**
 * How long the app keeps its events: forever, or a number of days after which the maintenance
 * schedule deletes them (never inside a subscription's current billing period).
 */
export function DataRetentionForm({ appId }: { appId: string }) {
  const retention = useDataRetention(appId);
  if (!retention.isSuccess) return <QueryState query={retention} loading="Loading data retention…" />;
  return <RetentionEditor appId={appId} saved={retention.data} />;
}

function RetentionEditor({ appId, saved }: { appId: string; saved: number | null }) {
  const [forever, setForever] = useState(saved === null);
  const [days, setDays] = useState(String(saved ?? 365));
  const save = useSaveDataRetention(appId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(forever ? null : Number(days));
  };
  return (
    <form onSubmit={submit} aria-label="Data retention">
      <p>
        Events older than the days you choose are deleted within the hour, except those inside a subscription's current billing period. Fewer events cost less
        to store and search; deleted events can no longer be searched, charted or shown behind a billing report.
      </p>
      <label>
        <input type="checkbox" checked={forever} onChange={(e) => setForever(e.target.checked)} /> Keep every event
      </label>
      <label>
        Days to keep events
        <input type="number" name="data_retention_days" min={35} max={3650} value={days} disabled={forever} onChange={(e) => setDays(e.target.value)} />
      </label>
      <button type="submit" disabled={save.isPending}>
        Save data retention
      </button>
      {save.isSuccess && <p role="status">{save.data === null ? 'Every event is kept.' : `Events are kept for ${save.data} days.`}</p>}
      {save.error && <ErrorMessage error={save.error} />}
    </form>
  );
}
