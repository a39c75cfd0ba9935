import { isValidElement, Suspense, use, useMemo, type ComponentType, type ReactNode } from 'react';
import { matchRoutes, Navigate, useRoutes, type RouteObject } from 'react-router';
import type { ConsoleConfig } from '../config/console-config';
import { ConsoleLayout } from './layout';
import { NotFoundPage } from './routes/not-found-page';
import { SignInPage } from './routes/sign-in-page';
import { Loading } from '../components/loading';
import { loadTimeSeriesChart } from '../components/use-time-series-chart';
import { moduleLoader } from '../lib/module-loader';

/** A page whose module loads on first visit, or earlier through `preload`. */
interface LazyPage<P> {
  (props: P): ReactNode;
  preload(): Promise<unknown>;
}

/**
 * Pages load on first visit, each module its own chunk: the first page carries the shell (layout,
 * sign-in, shared views) and the page it shows, not every page of the console. A page loaded
 * before it is shown (`preload`) renders at once, without its Suspense fallback (module-loader.ts).
 */
function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  const page = moduleLoader(load);
  // Made once per page at module load, as React.lazy makes its components: never during a render.
  // biome-ignore lint/correctness/noComponentHookFactories: a factory called at module level, like React.lazy
  const Page = (props: P) => {
    const Component = page.loaded ?? use(page.load());
    return <Component {...props} />;
  };
  return Object.assign(Page, { preload: () => page.load() });
}

/** Starts loading the modules of the pages `path` shows, so they render without a fallback. */
function preloadPagesAt(routes: RouteObject[], path: string): void {
  for (const { route } of matchRoutes(routes, path) ?? []) {
    const page = isValidElement(route.element) ? route.element.type : undefined;
    if (typeof page === 'function' && 'preload' in page && typeof page.preload === 'function') void page.preload();
  }
}

/** Pages outside the signed-in layout (whose own Suspense waits for its pages) wait here. */
const standalone = (page: ReactNode) => <Suspense fallback={<Loading label="Loading the page…" />}>{page}</Suspense>;

// Shared views and unsubscribe links are opened by people without an account: their code (charts
// included) loads with them, not with the sign-in page.
const SharedViewPage = lazyPage(() => import('./routes/shared-view-page').then((m) => m.SharedViewPage));
const CustomerUsagePage = lazyPage(() => import('./routes/customer-pages').then((m) => m.CustomerUsagePage));
const CustomerTemplatesPage = lazyPage(() => import('./routes/customer-pages').then((m) => m.CustomerTemplatesPage));
const UnsubscribePage = lazyPage(() => import('./routes/unsubscribe-page').then((m) => m.UnsubscribePage));
const ApiReferencePage = lazyPage(() => import('./routes/api-reference-page').then((m) => m.ApiReferencePage));

const AppsPage = lazyPage(() => import('./routes/apps-page').then((m) => m.AppsPage));
const BillingMetersPage = lazyPage(() => import('./routes/billing-pages').then((m) => m.BillingMetersPage));
const BillingReportPage = lazyPage(() => import('./routes/billing-pages').then((m) => m.BillingReportPage));
const BillingReportsPage = lazyPage(() => import('./routes/billing-pages').then((m) => m.BillingReportsPage));
const AlertPage = lazyPage(() => import('./routes/alert-pages').then((m) => m.AlertPage));
const AlertsPage = lazyPage(() => import('./routes/alert-pages').then((m) => m.AlertsPage));
const NewAlertPage = lazyPage(() => import('./routes/alert-pages').then((m) => m.NewAlertPage));
const CatalogPage = lazyPage(() => import('./routes/billing-pages').then((m) => m.CatalogPage));
const ChannelsPage = lazyPage(() => import('./routes/billing-pages').then((m) => m.ChannelsPage));
const MeterPage = lazyPage(() => import('./routes/billing-pages').then((m) => m.MeterPage));
const NewMeterPage = lazyPage(() => import('./routes/billing-pages').then((m) => m.NewMeterPage));
const SubscriptionLedgerPage = lazyPage(() => import('./routes/billing-pages').then((m) => m.SubscriptionLedgerPage));
// Pages that open on a chart start loading ECharts with their own module: on sign-in to one, both load
// while the form is filled in, and the chart is drawn as soon as its search answers.
const withChart = <T,>(page: Promise<T>): Promise<T> => {
  void loadTimeSeriesChart();
  return page;
};
const ChartPage = lazyPage(() => withChart(import('./routes/chart-page').then((m) => m.ChartPage)));
const CohortPage = lazyPage(() => import('./routes/cohort-pages').then((m) => m.CohortPage));
const CohortsPage = lazyPage(() => import('./routes/cohort-pages').then((m) => m.CohortsPage));
const GovernancePage = lazyPage(() => import('./routes/cohort-pages').then((m) => m.GovernancePage));
const GovernanceRulePage = lazyPage(() => import('./routes/cohort-pages').then((m) => m.GovernanceRulePage));
const NewGovernanceRulePage = lazyPage(() => import('./routes/cohort-pages').then((m) => m.NewGovernanceRulePage));
const EmailTemplatePage = lazyPage(() => import('./routes/email-pages').then((m) => m.EmailTemplatePage));
const EmailTemplatesPage = lazyPage(() => import('./routes/email-pages').then((m) => m.EmailTemplatesPage));
const NewEmailTemplatePage = lazyPage(() => import('./routes/email-pages').then((m) => m.NewEmailTemplatePage));
const ContractsPage = lazyPage(() => import('./routes/contracts-page').then((m) => m.ContractsPage));
const CustomersPage = lazyPage(() => import('./routes/customers-page').then((m) => m.CustomersPage));
const DashboardPage = lazyPage(() => import('./routes/dashboard-pages').then((m) => m.DashboardPage));
const DashboardsPage = lazyPage(() => import('./routes/dashboard-pages').then((m) => m.DashboardsPage));
const WorkspacesPage = lazyPage(() => import('./routes/dashboard-pages').then((m) => m.WorkspacesPage));
const EventPage = lazyPage(() => import('./routes/event-page').then((m) => m.EventPage));
const EventsPage = lazyPage(() => import('./routes/events-page').then((m) => m.EventsPage));
const EventVoidsPage = lazyPage(() => import('./routes/events-page').then((m) => m.EventVoidsPage));
const VirtualEventTypesPage = lazyPage(() => import('./routes/events-page').then((m) => m.VirtualEventTypesPage));
const ExportsPage = lazyPage(() => import('./routes/exports-page').then((m) => m.ExportsPage));
const OverviewPage = lazyPage(() => withChart(import('./routes/overview-page').then((m) => m.OverviewPage)));
const ProfilePage = lazyPage(() => import('./routes/profile-page').then((m) => m.ProfilePage));
const WorkspacePage = lazyPage(() => withChart(import('./routes/workspace-page').then((m) => m.WorkspacePage)));

/**
 * Every page of the console is a real URL under /console/ that can be shared and reloaded. Routes
 * are declared for `useRoutes` under a BrowserRouter rather than for a data router: the console
 * uses no loaders or actions, and the data router's code was 18 KB of the first page's gzipped
 * JavaScript.
 */
function consoleRoutes(config: ConsoleConfig): RouteObject[] {
  const preload = (path: string) => preloadPagesAt(routes, path);
  const routes: RouteObject[] = [
    // The page signed in to loads while the form is filled in.
    { path: '/sign-in', element: <SignInPage defaultOrgId={config.orgId} preloadPage={preload} /> },
    // Shared links need no session: outside the signed-in layout (the server lets only /embed/ be framed).
    { path: '/shared/:token', element: standalone(<SharedViewPage embedded={false} />) },
    { path: '/embed/:token', element: standalone(<SharedViewPage embedded />) },
    { path: '/unsubscribe/:token', element: standalone(<UnsubscribePage />) },
    // A customer's pages: opened in the API company's product with a customer token, framed anywhere.
    { path: '/customer/:token', element: standalone(<CustomerUsagePage />) },
    { path: '/customer/:token/templates', element: standalone(<CustomerTemplatesPage />) },
    { path: '/api-reference', element: standalone(<ApiReferencePage {...(config.collectorUrl ? { collectorUrl: config.collectorUrl } : {})} />) },
    {
      element: <ConsoleLayout />,
      children: [
        { index: true, element: <Navigate to="/overview" replace /> },
        { path: '/overview', element: <OverviewPage /> },
        { path: '/events', element: <EventsPage /> },
        { path: '/events/voids', element: <EventVoidsPage /> },
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
        { path: '/billing/catalog', element: <CatalogPage managementUrl={config.managementUrl} /> },
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
        { path: '/alerts', element: <AlertsPage /> },
        { path: '/alerts/new', element: <NewAlertPage /> },
        { path: '/alerts/:alertId', element: <AlertPage /> },
        { path: '/governance', element: <GovernancePage /> },
        { path: '/governance/new', element: <NewGovernanceRulePage /> },
        { path: '/governance/:ruleId', element: <GovernanceRulePage /> },
        { path: '/contracts', element: <ContractsPage /> },
        { path: '/apps', element: <AppsPage collectorUrl={config.collectorUrl} /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
  return routes;
}

export function ConsoleRoutes({ config }: { config: ConsoleConfig }) {
  const routes = useMemo(() => consoleRoutes(config), [config]);
  return useRoutes(routes);
}
