import { Link } from 'react-router';
import { JsonView } from '../../../components/json-view';
import { useFormatTime } from '../../../lib/app-time-zone';
import { useEvent } from '../api/get-event';
import { BodyView } from './body-view';
import { QueryState } from '../../../components/query-state';

/** One event: what was called, timing, who called, the request and response with headers and bodies, metadata. */
export function EventDetail({ eventId, eventTime }: { eventId: string; eventTime?: string }) {
  const format = useFormatTime();
  const query = useEvent(eventId, eventTime);
  if (!query.isSuccess) return <QueryState query={query} loading="Loading the event…" />;
  const event = query.data._source;
  const request: NonNullable<typeof event.request> = event.request ?? {};
  const response: NonNullable<typeof event.response> = event.response ?? {};
  return (
    <article className="event-detail" aria-label="Event">
      <dl className="facts">
        <dt>Event</dt>
        <dd>{event.event_type === 'action' ? `Action ${event.action_name ?? ''}` : `${request.verb ?? ''} ${request.uri ?? ''}`}</dd>
        {request.route && (
          <>
            <dt>Route</dt>
            <dd>{request.route}</dd>
          </>
        )}
        <dt>Time</dt>
        <dd>
          <time dateTime={request.time}>{format(request.time)}</time>
        </dd>
        {response.status !== undefined && (
          <>
            <dt>Status</dt>
            <dd>{response.status}</dd>
          </>
        )}
        {event.duration_ms !== undefined && (
          <>
            <dt>Duration</dt>
            <dd>{event.duration_ms} ms</dd>
          </>
        )}
        {event.user_id && (
          <>
            <dt>User</dt>
            <dd>
              <Link to={`/users/${encodeURIComponent(event.user_id)}`}>{event.user_id}</Link>
            </dd>
          </>
        )}
        {event.company_id && (
          <>
            <dt>Company</dt>
            <dd>
              <Link to={`/companies/${encodeURIComponent(event.company_id)}`}>{event.company_id}</Link>
            </dd>
          </>
        )}
        {request.ip_address && (
          <>
            <dt>IP address</dt>
            <dd>{request.ip_address}</dd>
          </>
        )}
        <dt>Event id</dt>
        <dd>
          <code>{query.data._id}</code>
        </dd>
      </dl>
      {event.event_type !== 'action' && (
        <div className="exchange">
          <section aria-label="Request">
            <h2>Request</h2>
            <h3>Headers</h3>
            <JsonView value={request.headers ?? {}} label="Request headers" />
            <h3>Body</h3>
            <BodyView body={request.body} encoding={request.transfer_encoding} truncated={request.body_truncated} label="Request body" />
          </section>
          <section aria-label="Response">
            <h2>Response</h2>
            <h3>Headers</h3>
            <JsonView value={response.headers ?? {}} label="Response headers" />
            <h3>Body</h3>
            <BodyView body={response.body} encoding={response.transfer_encoding} truncated={response.body_truncated} label="Response body" />
          </section>
        </div>
      )}
      <section aria-label="Metadata">
        <h2>Metadata</h2>
        <JsonView value={event.metadata ?? {}} label="Metadata" />
      </section>
    </article>
  );
}
