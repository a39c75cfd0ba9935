import { EmptyState } from '../../../components/empty-state';
import { QueryState } from '../../../components/query-state';
import { useAlertHistory, useWebhookChannels } from '../api/alerts';
import { channelName } from '../utils/channel-names';

const shown = (value: number | null) => (value === null ? '—' : Number.isInteger(value) ? String(value) : value.toFixed(2));

/** Firings and resolves, newest first, with where each message stands per channel. */
export function AlertHistory({ alertId }: { alertId: string }) {
  const history = useAlertHistory(alertId);
  const channels = useWebhookChannels();
  const webhookNames = new Map((channels.data ?? []).map((channel) => [channel._id, channel.name]));
  if (!history.isSuccess) return <QueryState query={history} loading="Loading the alert's history…" />;
  const events = history.data.events;
  if (events.length === 0) return <EmptyState title="Never fired" />;
  return (
    <table className="event-table" aria-label="Alert history">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">What</th>
          <th scope="col">For</th>
          <th scope="col">Value</th>
          <th scope="col">Threshold</th>
          <th scope="col">Sent to</th>
        </tr>
      </thead>
      <tbody>
        {events.map((event) => (
          <tr key={event.event_id}>
            <td>{new Date(event.at).toLocaleString()}</td>
            <td>{event.kind}</td>
            <td>{event.series === '*' ? 'all events' : event.series}</td>
            <td>{shown(event.value)}</td>
            <td>{shown(event.threshold)}</td>
            <td>
              {Object.entries(event.channels).map(([channel, outcome]) => (
                <div key={channel} title={outcome.error}>
                  {channelName(channel, webhookNames)}: {outcome.status}
                </div>
              ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
