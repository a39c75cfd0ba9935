import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { useSession } from '../../lib/session-context';

export function SignInPage({ defaultOrgId }: { defaultOrgId?: string }) {
  const { session, setSession } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as { from?: string; expired?: boolean } | null;
  const [params] = useSearchParams();
  const appId = params.get('app_id') ?? undefined;
  if (session) return <Navigate to={state?.from ?? '/events'} replace />;
  return (
    <main className="sign-in-page" id="main">
      <h1>Sign in</h1>
      {state?.expired && <p role="status">Your session ended; sign in again.</p>}
      <SignInForm
        defaultOrgId={defaultOrgId}
        appId={appId}
        onSignedIn={(next) => {
          setSession(next);
          void navigate(state?.from ?? '/events', { replace: true });
        }}
      />
    </main>
  );
}
