import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { useApi } from '../../../lib/api-context';
import { startSession } from '../../../lib/console-session';
import type { Session } from '../../../lib/session';

/** The sign-in form: organisation id, username and password; the session it starts lasts across tabs and reloads. */
export function SignInForm({ defaultOrgId, appId, onSignedIn }: { defaultOrgId?: string; appId?: string; onSignedIn: (session: Session) => void }) {
  const api = useApi();
  const [orgId, setOrgId] = useState(defaultOrgId ?? '');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const mutation = useMutation({
    mutationFn: () => startSession(api, { orgId: orgId.trim(), username: username.trim(), password, ...(appId ? { appId } : {}) }),
    onSuccess: onSignedIn,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };

  return (
    <form className="sign-in" onSubmit={submit} aria-label="Sign in">
      <label>
        Organisation id
        <input name="org_id" value={orgId} onChange={(e) => setOrgId(e.target.value)} required autoComplete="organization" />
      </label>
      <label>
        Username
        <input name="username" value={username} onChange={(e) => setUsername(e.target.value)} required autoComplete="username" />
      </label>
      <label>
        Password
        <input name="password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} required autoComplete="current-password" />
      </label>
      {appId && (
        <p>
          Signing in to app <code>{appId}</code>.
        </p>
      )}
      <ErrorMessage error={mutation.error} />
      <button type="submit" disabled={mutation.isPending}>
        {mutation.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
