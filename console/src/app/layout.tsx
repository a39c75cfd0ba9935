import { Suspense, useEffect, useState } from 'react';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { Loading } from '../components/loading';
import { signOut } from '../features/auth/api/sign-out';
import { useApi } from '../lib/api-context';
import { hasScope } from '../lib/session';
import { useSession } from '../lib/session-context';

/** The sections, each shown only to a token with the scope its first page reads. */
const SECTIONS = [
  { to: '/overview', label: 'Overview', scope: 'read:events' },
  { to: '/events', label: 'Events', scope: 'read:events' },
  { to: '/charts/new', label: 'Charts', scope: 'read:events' },
  { to: '/dashboards', label: 'Dashboards', scope: 'read:dashboards' },
  { to: '/customers', label: 'Customers', scope: 'read:users' },
  { to: '/cohorts', label: 'Cohorts', scope: 'read:cohorts' },
  { to: '/emails', label: 'Emails', scope: 'read:cohorts' },
  { to: '/governance', label: 'Governance', scope: 'read:apps' },
  { to: '/alerts', label: 'Alerts', scope: 'read:alerts' },
  { to: '/billing/reports', label: 'Billing', scope: 'read:reports' },
  { to: '/exports', label: 'Exports', scope: 'read:events' },
  { to: '/contracts', label: 'Contracts', scope: 'create:eth_abi' },
  { to: '/apps', label: 'Apps and keys', scope: 'read:apps' },
] as const;

/** The frame of every signed-in page: navigation, who is signed in, sign-out. */
export function ConsoleLayout() {
  const { session, setSession } = useSession();
  const api = useApi();
  const navigate = useNavigate();
  const location = useLocation();
  // At phone width the sections fold behind a Menu button, so a page starts on the first screen; a choice folds them again.
  const [menuOpen, setMenuOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the menu folds when the page changes, which the path says
  useEffect(() => setMenuOpen(false), [location.pathname]);
  if (!session) return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  const leave = async () => {
    await signOut(api, session);
    setSession(undefined);
    void navigate('/sign-in');
  };
  return (
    <div className="layout">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <span className="brand">API analytics</span>
        <button type="button" className="menu-toggle" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <nav aria-label="Main" id="main-nav" className={menuOpen ? 'open' : undefined}>
          {SECTIONS.filter((section) => hasScope(session, section.scope)).map((section) => (
            <NavLink key={section.to} to={section.to}>
              {section.label}
            </NavLink>
          ))}
          <NavLink to="/api-reference">API reference</NavLink>
        </nav>
        <span className="who">
          {session.username} · app <code>{session.appId}</code>
        </span>
        <button type="button" onClick={() => void leave()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<Loading label="Loading the page…" />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
