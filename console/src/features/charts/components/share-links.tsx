import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { useCreateSignedToken, useRevokeSignedToken, useSignedTokens, type SharedTimeRange, type SharedViewToken } from '../api/shared-views';

/** Ranges an owner can let viewers pick; the first checked one is what a viewer sees first. */
const RANGE_CHOICES: SharedTimeRange[] = [
  { from: '-24h', to: 'now', label: 'Last 24 hours' },
  { from: '-7d', to: 'now', label: 'Last 7 days' },
  { from: '-30d', to: 'now', label: 'Last 30 days' },
  { from: '-90d', to: 'now', label: 'Last 90 days' },
];
const EXPIRY_CHOICES = { [86_400]: 'A day', [7 * 86_400]: 'A week', [30 * 86_400]: '30 days', [90 * 86_400]: '90 days', [365 * 86_400]: 'A year' } as const;

type Target = { kind: 'workspace' | 'dashboard'; id: string };

/**
 * Public and embeddable links of a workspace or dashboard: make one (which ranges viewers may pick,
 * for how long), see its link and iframe snippet once, list the live ones and revoke them.
 */
export function ShareLinks({ target }: { target: Target }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="share-links" open={open} onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}>
      <summary>Share publicly or embed</summary>
      {open && <ShareLinksBody target={target} />}
    </details>
  );
}

function ShareLinksBody({ target }: { target: Target }) {
  const links = useSignedTokens(target);
  const create = useCreateSignedToken(target);
  const revoke = useRevokeSignedToken(target);
  const [ranges, setRanges] = useState<string[]>(['-24h', '-7d']);
  const [expiresIn, setExpiresIn] = useState(30 * 86_400);
  const [description, setDescription] = useState('');
  const [made, setMade] = useState<SharedViewToken | undefined>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = RANGE_CHOICES.filter((choice) => ranges.includes(choice.from));
    create.mutate(
      { time_ranges: chosen, expires_in: expiresIn, ...(description.trim() ? { description: description.trim() } : {}) },
      { onSuccess: (token) => setMade(token) },
    );
  };
  return (
    <div>
      <form className="inline-form" onSubmit={submit} aria-label="Create a shared link">
        <fieldset className="scopes">
          <legend>Viewers may pick</legend>
          {RANGE_CHOICES.map((choice) => (
            <label key={choice.from} className="toggle">
              <input
                type="checkbox"
                checked={ranges.includes(choice.from)}
                onChange={(e) => setRanges(e.target.checked ? [...ranges, choice.from] : ranges.filter((r) => r !== choice.from))}
              />
              {choice.label}
            </label>
          ))}
        </fieldset>
        <label>
          Works for
          <select value={expiresIn} onChange={(e) => setExpiresIn(Number(e.target.value))}>
            {Object.entries(EXPIRY_CHOICES).map(([seconds, label]) => (
              <option key={seconds} value={seconds}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Note (who it is for) <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={256} />
        </label>
        <button type="submit" disabled={create.isPending || ranges.length === 0}>
          {create.isPending ? 'Creating…' : 'Create link'}
        </button>
      </form>
      <ErrorMessage error={create.error} />
      {made?.url && made.embed_url && (
        <div className="new-link" role="status">
          <p>
            Anyone with this link sees the {target.kind} without signing in, until {new Date(made.expires_at).toLocaleString()}. It is shown once: copy it now.
          </p>
          <label>
            Link <input readOnly value={made.url} onFocus={(e) => e.target.select()} />
          </label>
          <label>
            Embed{' '}
            <input
              readOnly
              value={`<iframe src="${made.embed_url}" width="100%" height="420" style="border:0" title="Shared ${target.kind}"></iframe>`}
              onFocus={(e) => e.target.select()}
            />
          </label>
        </div>
      )}
      <h3>Live links</h3>
      <ErrorMessage error={links.error ?? revoke.error} />
      {links.data && links.data.length === 0 && <p className="muted">None: this {target.kind} is not shared.</p>}
      {links.data && links.data.length > 0 && (
        <table className="event-table" aria-label="Live shared links">
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Until</th>
              <th scope="col">Ranges</th>
              <th scope="col">Note</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {links.data.map((link) => (
              <tr key={link._id}>
                <td>{new Date(link.created_at).toLocaleString()}</td>
                <td>{new Date(link.expires_at).toLocaleString()}</td>
                <td>{link.time_ranges.map((r) => r.label ?? `${r.from} → ${r.to}`).join(', ')}</td>
                <td>{link.description ?? ''}</td>
                <td>
                  <button type="button" onClick={() => revoke.mutate(link._id)} disabled={revoke.isPending}>
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
