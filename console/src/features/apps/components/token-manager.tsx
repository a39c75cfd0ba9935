import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { useMintToken, useRevokeToken } from '../api/apps';

/** Mints management tokens for scripts (shown once) and revokes tokens by id. */
export function TokenManager({ scopes }: { scopes: readonly string[] }) {
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
          <label>Expires on (default one year) <input type="date" name="expiration" value={expiration} onChange={(e) => setExpiration(e.target.value)} /></label>
          <button type="submit" disabled={mint.isPending || chosen.length === 0}>Mint token</button>
        </div>
        <ErrorMessage error={mint.error} />
      </form>
      {mint.data && (
        <div className="minted" role="status">
          <p>Token <code>{mint.data._id}</code>, shown this once:</p>
          <pre className="json-view" tabIndex={0} aria-label="Minted token">{mint.data.token}</pre>
        </div>
      )}
      <form className="inline-form" onSubmit={submitRevoke} aria-label="Revoke a token">
        <label>Token id <input name="token_id" value={revokeId} onChange={(e) => setRevokeId(e.target.value)} required /></label>
        <button type="submit" disabled={revoke.isPending}>Revoke</button>
        {revoke.data && <span role="status">Token {revoke.data} revoked.</span>}
        <ErrorMessage error={revoke.error} />
      </form>
    </div>
  );
}
