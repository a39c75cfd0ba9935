import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { useSession } from '../../lib/session-context';

/** `preloadPage` starts loading the page signed in to, while the form is filled in. */
export function SignInPage({ defaultOrgId, preloadPage }: { defaultOrgId?: string; preloadPage?: (path: string) => void }) {
  const { session, setSession } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as { from?: string; expired?: boolean } | null;
  const [params] = useSearchParams();
  const appId = params.get('app_id') ?? undefined;
  const destination = state?.from ?? '/overview';
  useEffect(() => preloadPage?.(destination), [preloadPage, destination]);
  if (session) return <Navigate to={destination} replace />;
  return (
    <main className="sign-in-page" id="main">
      <h1>Sign in</h1>
      {state?.expired && <p role="status">Your session ended; sign in again.</p>}
      <SignInForm
        defaultOrgId={defaultOrgId}
        appId={appId}
        onSignedIn={(next) => {
          setSession(next);
          void navigate(destination, { replace: true });
        }}
      />
    </main>
  );
}
