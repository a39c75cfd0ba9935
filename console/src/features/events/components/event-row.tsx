import { Link } from 'react-router';
import { useFormatTime } from '../../../lib/app-time-zone';
import type { EventHit } from '../api/event-types';

const statusClass = (status: number | undefined) => (status === undefined ? '' : status >= 500 ? 'status-5xx' : status >= 400 ? 'status-4xx' : 'status-ok');

/** The path of a URI as called (no origin, query or fragment): the stream shows calls, not their route template. */
const pathOf = (uri: string) => uri.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split(/[?#]/)[0] || '/';

/** One line of the stream: time, what happened, status, user and company; opens the event. */
export function EventRow({ hit }: { hit: EventHit }) {
  const format = useFormatTime();
  const event = hit._source;
  const time = event.request?.time;
  const href = `/events/${encodeURIComponent(hit._id)}${time ? `?time=${encodeURIComponent(time)}` : ''}`;
  const what =
    event.event_type === 'action'
      ? (event.action_name ?? 'action')
      : `${event.request?.verb ?? ''} ${event.request?.uri ? pathOf(event.request.uri) : (event.request?.route ?? '')}`;
  return (
    <tr>
      <td>
        <time dateTime={time}>{format(time)}</time>
      </td>
      <td>
        <Link to={href}>{what}</Link>
        {event.voided_at ? (
          <span className="badge" title={`Voided ${format(event.voided_at)} (void ${event.void_id ?? ''})`}>
            voided
          </span>
        ) : null}
      </td>
      <td className={statusClass(event.response?.status)}>{event.response?.status ?? ''}</td>
      <td>{event.duration_ms === undefined ? '' : `${event.duration_ms} ms`}</td>
      <td>{event.user_id ?? ''}</td>
      <td>{event.company_id ?? ''}</td>
    </tr>
  );
}
