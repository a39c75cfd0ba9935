import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { useIssuedTokens, useMintToken, useRevokeToken } from '../api/apps';

/**
 * Mints management tokens for scripts (shown once), lists the user's tokens still usable (the
 * console's own included, marked and not revocable here) and revokes them, or any token by id.
 */
export function TokenManager({ scopes, currentTokenId }: { scopes: readonly string[]; currentTokenId: string }) {
  const issued = useIssuedTokens();
  const mint = useMintToken();
  const revoke = useRevokeToken();
  const [chosen, setChosen] = useState<string[]>(scopes.filter((scope) => scope.startsWith('read:')));
  const [expiration, setExpiration] = useState('');
  const [revokeId, setRevokeId] = useState('');
  const toggle = (scope: string) => setChosen((current) => (current.includes(scope) ? current.filter((s) => s !== scope) : [...current, scope]));
  const submitMint = (event: FormEvent) => {
    event.preventDefault();
    mint.mutate({ scopes: chosen, ...(expiration ? { expiration: new Date(`${expiration}T00:00:00Z`).toISOString() } : {}) });
  };
  const submitRevoke = (event: FormEvent) => {
    event.preventDefault();
    revoke.mutate(revokeId.trim(), { onSuccess: () => setRevokeId('') });
  };
  return (
    <div className="token-manager">
      <form onSubmit={submitMint} aria-label="Mint a management token">
        <fieldset className="scopes">
          <legend>Scopes (only those your own token holds)</legend>
          {scopes.map((scope) => (
            <label key={scope} className="toggle">
              <input type="checkbox" name="scope" value={scope} checked={chosen.includes(scope)} onChange={() => toggle(scope)} /> {scope}
            </label>
          ))}
        </fieldset>
        <div className="inline-form">
          <label>
            Expires on (default one year) <input type="date" name="expiration" value={expiration} onChange={(e) => setExpiration(e.target.value)} />
          </label>
          <button type="submit" disabled={mint.isPending || chosen.length === 0}>
            Mint token
          </button>
        </div>
        <ErrorMessage error={mint.error} />
      </form>
      {mint.data && (
        <div className="minted" role="status">
          <p>
            Token <code>{mint.data._id}</code>, shown this once:
          </p>
          <pre className="json-view" tabIndex={0} aria-label="Minted token">
            {mint.data.token}
          </pre>
        </div>
      )}
      {issued.isPending ? (
        <Loading label="Loading your tokens…" />
      ) : issued.error ? (
        <ErrorMessage error={issued.error} />
      ) : (
        <table className="event-table" aria-label="Your tokens">
          <caption>Your tokens still usable</caption>
          <thead>
            <tr>
              <th scope="col">Token id</th>
              <th scope="col">Scopes</th>
              <th scope="col">Issued</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {issued.data.map((token) => (
              <tr key={token._id}>
                <td>
                  <code>{token._id}</code>
                </td>
                <td>{token.scopes.length === scopes.length ? 'all yours' : token.scopes.join(' ')}</td>
                <td>{new Date(token.issued_at).toLocaleString()}</td>
                <td>{token.expires_at === null ? 'never' : new Date(token.expires_at).toLocaleString()}</td>
                <td>
                  {token._id === currentTokenId ? (
                    <span className="muted">this console</span>
                  ) : (
                    <button type="button" className="secondary" onClick={() => revoke.mutate(token._id)} aria-label={`Revoke ${token._id}`}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form className="inline-form" onSubmit={submitRevoke} aria-label="Revoke a token">
        <label>
          Token id <input name="token_id" data-chosen-id value={revokeId} onChange={(e) => setRevokeId(e.target.value)} required />
        </label>
        <button type="submit" disabled={revoke.isPending}>
          Revoke
        </button>
        {revoke.data && <span role="status">Token {revoke.data} revoked.</span>}
        <ErrorMessage error={revoke.error} />
      </form>
    </div>
  );
}
