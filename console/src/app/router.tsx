import { createBrowserRouter, Navigate } from 'react-router';
import type { ConsoleConfig } from '../config/console-config';
import { ConsoleLayout } from './layout';
import { AppsPage } from './routes/apps-page';
import { BillingMetersPage, BillingReportPage, BillingReportsPage, CatalogPage, ChannelsPage, MeterPage, NewMeterPage, SubscriptionLedgerPage } from './routes/billing-pages';
import { ChartPage } from './routes/chart-page';
import { CohortPage, CohortsPage, GovernancePage, GovernanceRulePage, NewGovernanceRulePage } from './routes/cohort-pages';
import { EmailTemplatePage, EmailTemplatesPage, NewEmailTemplatePage } from './routes/email-pages';
import { ContractsPage } from './routes/contracts-page';
import { CustomersPage } from './routes/customers-page';
import { DashboardPage, DashboardsPage, WorkspacesPage } from './routes/dashboard-pages';
import { EventPage } from './routes/event-page';
import { EventsPage, VirtualEventTypesPage } from './routes/events-page';
import { ExportsPage } from './routes/exports-page';
import { NotFoundPage } from './routes/not-found-page';
import { ProfilePage } from './routes/profile-page';
import { SharedViewPage } from './routes/shared-view-page';
import { SignInPage } from './routes/sign-in-page';
import { UnsubscribePage } from './routes/unsubscribe-page';
import { WorkspacePage } from './routes/workspace-page';

/** Every page of the console is a real URL under /console/ that can be shared and reloaded. */
export function createConsoleRouter(config: ConsoleConfig) {
  return createBrowserRouter(
    [
      { path: '/sign-in', element: <SignInPage defaultOrgId={config.orgId} /> },
      // Shared links need no session: outside the signed-in layout (the server lets only /embed/ be framed).
      { path: '/shared/:token', element: <SharedViewPage embedded={false} /> },
      { path: '/embed/:token', element: <SharedViewPage embedded /> },
      { path: '/unsubscribe/:token', element: <UnsubscribePage /> },
      {
        element: <ConsoleLayout />,
        children: [
          { index: true, element: <Navigate to="/events" replace /> },
          { path: '/events', element: <EventsPage /> },
          { path: '/events/:eventId', element: <EventPage /> },
          { path: '/event-types', element: <VirtualEventTypesPage /> },
          { path: '/exports', element: <ExportsPage /> },
          { path: '/charts/new', element: <ChartPage /> },
          { path: '/workspaces', element: <WorkspacesPage /> },
          { path: '/workspaces/:workspaceId', element: <WorkspacePage /> },
          { path: '/dashboards', element: <DashboardsPage /> },
          { path: '/dashboards/:dashboardId', element: <DashboardPage /> },
          { path: '/customers', element: <CustomersPage /> },
          { path: '/users/:id', element: <ProfilePage kind="users" /> },
          { path: '/companies/:id', element: <ProfilePage kind="companies" /> },
          { path: '/billing/meters', element: <BillingMetersPage /> },
          { path: '/billing/meters/new', element: <NewMeterPage /> },
          { path: '/billing/catalog', element: <CatalogPage /> },
          { path: '/billing/channels', element: <ChannelsPage /> },
          { path: '/billing/meters/:meterId', element: <MeterPage /> },
          { path: '/billing/reports', element: <BillingReportsPage /> },
          { path: '/billing/reports/:reportId', element: <BillingReportPage /> },
          { path: '/billing/subscriptions/:subscriptionId', element: <SubscriptionLedgerPage /> },
          { path: '/cohorts', element: <CohortsPage /> },
          { path: '/cohorts/:cohortId', element: <CohortPage /> },
          { path: '/emails', element: <EmailTemplatesPage /> },
          { path: '/emails/new', element: <NewEmailTemplatePage /> },
          { path: '/emails/:templateId', element: <EmailTemplatePage /> },
          { path: '/governance', element: <GovernancePage /> },
          { path: '/governance/new', element: <NewGovernanceRulePage /> },
          { path: '/governance/:ruleId', element: <GovernanceRulePage /> },
          { path: '/contracts', element: <ContractsPage /> },
          { path: '/apps', element: <AppsPage collectorUrl={config.collectorUrl} /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
    { basename: import.meta.env.BASE_URL.replace(/\/$/, '') },
  );
}
