import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { useEventStream } from '../api/search-events';
import type { EventFilters } from '../utils/stream-query';
import { EventRow } from './event-row';

/** The live stream of API calls and actions, newest first, with older pages on demand. */
export function EventStream({ filters }: { filters: EventFilters }) {
  const [live, setLive] = useState(true);
  const stream = useEventStream(filters, live && filters.to === 'now');
  const hits = stream.data?.pages.flatMap((page) => page.hits) ?? [];
  const total = stream.data?.pages[0]?.total;
  return (
    <section aria-label="Event stream">
      <div className="stream-controls">
        <label className="toggle">
          <input type="checkbox" name="live" checked={live} onChange={(e) => setLive(e.target.checked)} /> Live
        </label>
        {total !== undefined && <span aria-live="polite">{total.toLocaleString()} events in range</span>}
        {stream.isFetching && <span className="spinner" aria-label="Updating" />}
      </div>
      <ErrorMessage error={stream.error} />
      {stream.isPending ? (
        <Loading label="Loading events…" />
      ) : hits.length === 0 ? (
        <EmptyState title="No events in this range">
          <p>
            Send API calls to the collector (<code>POST /v1/events</code>) with one of the Moesif SDKs, or widen the time range.
          </p>
        </EmptyState>
      ) : (
        <table className="event-table">
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Duration</th>
              <th scope="col">User</th>
              <th scope="col">Company</th>
            </tr>
          </thead>
          <tbody>
            {hits.map((hit) => (
              <EventRow key={hit._id} hit={hit} />
            ))}
          </tbody>
        </table>
      )}
      {stream.hasNextPage && (
        <button type="button" onClick={() => void stream.fetchNextPage()} disabled={stream.isFetchingNextPage}>
          {stream.isFetchingNextPage ? 'Loading older events…' : 'Older events'}
        </button>
      )}
    </section>
  );
}
