import { useParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { DashboardGrid } from '../../features/charts/components/dashboard-grid';
import { DashboardsList } from '../../features/charts/components/dashboards-list';
import { ShareLinks } from '../../features/charts/components/share-links';

export function DashboardsPage() {
  return (
    <>
      <PageHeader title="Dashboards" />
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
