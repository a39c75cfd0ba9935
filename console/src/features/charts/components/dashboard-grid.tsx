import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { PageHeader } from '../../../components/page-header';
import { useDashboard } from '../api/dashboards';
import { WorkspaceTile } from './workspace-tile';

/** A dashboard: its workspaces in rows, in the order it stores them. */
export function DashboardGrid({ dashboardId }: { dashboardId: string }) {
  const dashboard = useDashboard(dashboardId);
  if (dashboard.isPending) return <Loading label="Loading the dashboard…" />;
  if (dashboard.error) return <ErrorMessage error={dashboard.error} />;
  const rows = dashboard.data.workspace_ids.filter((row) => row.length > 0);
  return (
    <>
      <PageHeader title={dashboard.data.name} />
      {rows.length === 0 ? (
        <EmptyState title="This dashboard is empty"><p>Open a saved workspace and add it to this dashboard.</p></EmptyState>
      ) : (
        rows.map((row, i) => (
          <div className="dashboard-row" key={`${i}-${row.join(',')}`}>
            {row.map((id) => <WorkspaceTile key={id} workspaceId={id} />)}
          </div>
        ))
      )}
    </>
  );
}
