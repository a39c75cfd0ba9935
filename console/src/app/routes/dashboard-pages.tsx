import { Link, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { DashboardGrid } from '../../features/charts/components/dashboard-grid';
import { DashboardsList } from '../../features/charts/components/dashboards-list';
import { ShareLinks } from '../../features/charts/components/share-links';
import { WorkspacesList } from '../../features/charts/components/workspaces-list';

export function DashboardsPage() {
  return (
    <>
      <PageHeader title="Dashboards">
        <Link to="/workspaces">Saved workspaces</Link>
      </PageHeader>
      <DashboardsList />
    </>
  );
}

export function DashboardPage() {
  const { dashboardId = '' } = useParams();
  return (
    <>
      <DashboardGrid dashboardId={dashboardId} />
      <ShareLinks target={{ kind: 'dashboard', id: dashboardId }} />
    </>
  );
}

export function WorkspacesPage() {
  return (
    <>
      <PageHeader title="Saved workspaces">
        <Link to="/charts/new">New chart</Link> <Link to="/dashboards">Dashboards</Link>
      </PageHeader>
      <WorkspacesList />
    </>
  );
}
