import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { signOut } from '../features/auth/api/sign-out';
import { useApi } from '../lib/api-context';
import { useSession } from '../lib/session-context';

/** The frame of every signed-in page: navigation, who is signed in, sign-out. */
export function ConsoleLayout() {
  const { session, setSession } = useSession();
  const api = useApi();
  const navigate = useNavigate();
  const location = useLocation();
  if (!session) return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  const leave = async () => {
    await signOut(api, session);
    setSession(undefined);
    void navigate('/sign-in');
  };
  return (
    <div className="layout">
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="top-bar">
        <span className="brand">API analytics</span>
        <nav aria-label="Main">
          <NavLink to="/events">Events</NavLink>
          <NavLink to="/charts/new">Charts</NavLink>
        </nav>
        <span className="who">
          {session.username} · app <code>{session.appId}</code>
        </span>
        <button type="button" onClick={() => void leave()}>Sign out</button>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
