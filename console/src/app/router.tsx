import { createBrowserRouter, Navigate } from 'react-router';
import type { ConsoleConfig } from '../config/console-config';
import { ConsoleLayout } from './layout';
import { ChartPage } from './routes/chart-page';
import { EventPage } from './routes/event-page';
import { EventsPage } from './routes/events-page';
import { NotFoundPage } from './routes/not-found-page';
import { SignInPage } from './routes/sign-in-page';
import { WorkspacePage } from './routes/workspace-page';

/** Every page of the console is a real URL under /console/ that can be shared and reloaded. */
export function createConsoleRouter(config: ConsoleConfig) {
  return createBrowserRouter(
    [
      { path: '/sign-in', element: <SignInPage defaultOrgId={config.orgId} /> },
      {
        element: <ConsoleLayout />,
        children: [
          { index: true, element: <Navigate to="/events" replace /> },
          { path: '/events', element: <EventsPage /> },
          { path: '/events/:eventId', element: <EventPage /> },
          { path: '/charts/new', element: <ChartPage /> },
          { path: '/workspaces/:workspaceId', element: <WorkspacePage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
    { basename: import.meta.env.BASE_URL.replace(/\/$/, '') },
  );
}
