import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { QueryState } from '../../../components/query-state';
import { useApi } from '../../../lib/api-context';
import { useFormatTime } from '../../../lib/app-time-zone';
import { downloadText } from '../../../lib/csv';
import { allVoids, useVoidLog, type EventVoid } from '../api/event-voids';
import { paramsFromFilters } from '../utils/stream-query';
import { voidLogCsv } from '../utils/void-log-csv';

/** What a void named, in words. */
const whatOf = (entry: EventVoid) =>
  entry.event_ids ? `${entry.event_ids.length.toLocaleString()} events by id` : entry.query ? JSON.stringify(entry.query) : '';

/** The stream showing exactly a void's events (voided ones only, its range, its id). */
const eventsOf = (entry: EventVoid) =>
  `/events?${paramsFromFilters({ from: entry.from, to: entry.to, voided: 'only', text: `void_id:${entry.id}` }).toString()}`;

/** The audit log of voids: who, when, why, what and how many, newest first; all of it as a CSV download. */
export function VoidLog() {
  const api = useApi();
  const format = useFormatTime();
  const log = useVoidLog();
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const download = async () => {
    try {
      setDownloadError(null);
      downloadText(voidLogCsv(await allVoids(api)), 'event-voids.csv');
    } catch (error) {
      setDownloadError(error);
    }
  };
  if (!log.isSuccess) return <QueryState query={log} loading="Reading the audit log…" />;
  const voids = log.data.pages.flatMap((page) => page.items);
  if (voids.length === 0)
    return (
      <EmptyState title="No events voided">
        <p>
          Void events from the <Link to="/events">event stream</Link>: filter it to the wrong events, then <em>Void the events these filters match</em>.
        </p>
      </EmptyState>
    );
  return (
    <section aria-label="Audit log of voids">
      <button type="button" onClick={() => void download()}>
        Download CSV
      </button>
      <ErrorMessage error={downloadError} />
      <table aria-label="Voids">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Why</th>
            <th scope="col">What</th>
            <th scope="col">Events</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {voids.map((entry) => (
            <tr key={entry.id}>
              <td>
                <time dateTime={entry.created_at}>{format(entry.created_at)}</time>
              </td>
              <td>{entry.created_by}</td>
              <td>{entry.reason}</td>
              <td>
                <code>{whatOf(entry)}</code>
                <br />
                {format(entry.from)} – {format(entry.to)}
              </td>
              <td>
                <Link to={eventsOf(entry)}>{entry.voided.toLocaleString()}</Link> of {entry.matched.toLocaleString()}
                {entry.replacement ? `, replaced by ${(entry.replacement.events + entry.replacement.actions).toLocaleString()}` : ''}
              </td>
              <td>{entry.status === 'failed' ? `failed: ${entry.error ?? ''}` : entry.status}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {log.hasNextPage && (
        <button type="button" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          {log.isFetchingNextPage ? 'Loading older voids…' : 'Older voids'}
        </button>
      )}
    </section>
  );
}
