import { ErrorMessage } from '../../../components/error-message';
import { useTestChannels } from '../api/channels';

/** Sends a signed test event to a saved webhook meter's channels and shows each channel's answer. */
export function ChannelTest({ meterId }: { meterId: string }) {
  const test = useTestChannels();
  return (
    <section aria-label="Test delivery" className="channel-test">
      <button type="button" className="secondary" onClick={() => test.mutate(meterId)} disabled={test.isPending}>
        {test.isPending ? 'Sending…' : 'Send a test event to its channels'}
      </button>
      <ErrorMessage error={test.error} />
      {test.data && (
        <ul className="link-list" aria-label="Test deliveries">
          {test.data.channel_requests.map((channel) => {
            const last = channel.provider_requests[channel.provider_requests.length - 1];
            const answer = last
              ? `HTTP ${last.status_code === 0 ? 'no answer' : last.status_code}${last.error_message ? `: ${last.error_message}` : ''}`
              : 'not sent';
            return (
              <li key={channel.channel_id}>
                <strong>{channel.channel_name ?? channel.channel_id}</strong>: {channel.success ? 'delivered' : 'failed'} ({answer})
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
