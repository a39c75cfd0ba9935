import { useState, type FormEvent } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { Field } from '../../../components/field';
import { Loading } from '../../../components/loading';
import { fieldProblem } from '../../../lib/api-error';
import { useChannels, useDeleteChannel, useSaveChannel, type Channel } from '../api/channels';

/** A channel's form: new (name, URL, optional secret) or an edit (name, URL, status, rotate the secret). */
function ChannelForm({ channel, onDone }: { channel?: Channel; onDone: (saved: Channel) => void }) {
  const save = useSaveChannel();
  const [name, setName] = useState(channel?.name ?? '');
  const [url, setUrl] = useState(channel?.url ?? '');
  const [secret, setSecret] = useState('');
  const [status, setStatus] = useState<Channel['status']>(channel?.status ?? 'active');
  const [rotate, setRotate] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = channel
      ? { id: channel._id, update: { name: name.trim(), url: url.trim(), status, ...(rotate ? { rotate_secret: true } : {}) } }
      : { create: { name: name.trim(), url: url.trim(), status, ...(secret ? { secret } : {}) } };
    save.mutate(input, { onSuccess: onDone });
  };
  const problem = (field: string) => fieldProblem(save.error, field);
  return (
    <form className="inline-form" onSubmit={submit} aria-label={channel ? `Edit channel ${channel.name}` : 'New webhook channel'} noValidate>
      <Field label="Name" problem={problem('name')}>
        <input name="channel_name" value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field label="URL" problem={problem('url')}>
        <input name="channel_url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://billing.example.com/usage" size={40} />
      </Field>
      {channel ? (
        <>
          <Field label="Status" problem={problem('status')}>
            <select name="channel_status" value={status} onChange={(e) => setStatus(e.target.value as Channel['status'])}>
              <option value="active">Active</option>
              <option value="inactive">Inactive</option>
            </select>
          </Field>
          <label className="toggle">
            <input type="checkbox" name="rotate_secret" checked={rotate} onChange={(e) => setRotate(e.target.checked)} /> Rotate the signing secret (the old one
            signs for 24 h more)
          </label>
        </>
      ) : (
        <Field label="Signing secret (blank: generated)" problem={problem('secret')}>
          <input name="channel_secret" value={secret} onChange={(e) => setSecret(e.target.value)} autoComplete="off" />
        </Field>
      )}
      <button type="submit" disabled={save.isPending}>
        {channel ? 'Save channel' : 'Create channel'}
      </button>
      {!problem('name') && !problem('url') && !problem('secret') && <ErrorMessage error={save.error} />}
    </form>
  );
}

/** Webhook channels: list, create, edit, rotate the secret, delete. A new secret is shown once. */
export function ChannelsManager() {
  const channels = useChannels();
  const remove = useDeleteChannel();
  const [editing, setEditing] = useState<string>();
  const [revealed, setRevealed] = useState<{ name: string; secret: string }>();
  const saved = (channel: Channel) => {
    setEditing(undefined);
    if (channel.secret) setRevealed({ name: channel.name, secret: channel.secret });
  };
  return (
    <section aria-label="Webhook channels">
      <ChannelForm key={revealed?.secret ?? 'new'} onDone={saved} />
      {revealed && (
        <p role="status" className="secret-once">
          Signing secret of <strong>{revealed.name}</strong>: <code>{revealed.secret}</code>. Copy it to the receiver now: it is not shown again.
        </p>
      )}
      <ErrorMessage error={remove.error} />
      {channels.isPending ? (
        <Loading label="Loading channels…" />
      ) : channels.error ? (
        <ErrorMessage error={channels.error} />
      ) : channels.data.length === 0 ? (
        <EmptyState title="No webhook channels yet">
          <p>Create one above: a webhook meter delivers its signed usage reports to its channels.</p>
        </EmptyState>
      ) : (
        <table className="event-table" aria-label="Channels">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">URL</th>
              <th scope="col">Status</th>
              <th scope="col">Secret</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {channels.data.map((channel) =>
              editing === channel._id ? (
                <tr key={channel._id}>
                  <td colSpan={5}>
                    <ChannelForm channel={channel} onDone={saved} />
                  </td>
                </tr>
              ) : (
                <tr key={channel._id}>
                  <td>{channel.name}</td>
                  <td>
                    <code>{channel.url}</code>
                  </td>
                  <td>{channel.status}</td>
                  <td>{channel.secret_hint}</td>
                  <td>
                    <button type="button" className="secondary" onClick={() => setEditing(channel._id)} aria-label={`Edit ${channel.name}`}>
                      Edit
                    </button>{' '}
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => {
                        if (window.confirm(`Delete the channel ${channel.name}?`)) remove.mutate(channel._id);
                      }}
                      aria-label={`Delete ${channel.name}`}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}
