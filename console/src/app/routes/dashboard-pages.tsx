import { useParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { DashboardGrid } from '../../features/charts/components/dashboard-grid';
import { DashboardsList } from '../../features/charts/components/dashboards-list';

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
  return <DashboardGrid dashboardId={dashboardId} />;
}
