import { Link, useNavigate, useParams } from 'react-router';
import { ErrorMessage } from '../../components/error-message';
import { Loading } from '../../components/loading';
import { PageHeader } from '../../components/page-header';
import { useWorkspace } from '../../features/charts/api/workspaces';
import { AddToDashboardForm } from '../../features/charts/components/add-to-dashboard-form';
import { ChartPanel } from '../../features/charts/components/chart-panel';
import { ShareLinks } from '../../features/charts/components/share-links';
import { specOfWorkspaceChart, specToParams, VIEWS } from '../../features/charts/utils/chart-spec';

/** A saved workspace, drawn again exactly from its stored chart. */
export function WorkspacePage() {
  const { workspaceId = '' } = useParams();
  const navigate = useNavigate();
  const workspace = useWorkspace(workspaceId);
  if (workspace.isPending) return <Loading label="Loading the workspace…" />;
  if (workspace.error) return <ErrorMessage error={workspace.error} />;
  const { chart, name, drawings } = workspace.data;
  const drawable = chart.view in VIEWS;
  const spec = specOfWorkspaceChart(chart);
  return (
    <>
      <PageHeader title={name}>{drawable && <Link to={`/charts/new?${specToParams(spec).toString()}`}>Edit as a new chart</Link>}</PageHeader>
      {drawable ? (
        <ChartPanel spec={spec} drawings={drawings} />
      ) : (
        <p>
          This workspace's chart view (<code>{chart.view}</code>) is not drawn by the console; the API serves it as stored.
        </p>
      )}
      <AddToDashboardForm workspaceId={workspaceId} onAdded={(dashboardId) => void navigate(`/dashboards/${encodeURIComponent(dashboardId)}`)} />
      <ShareLinks target={{ kind: 'workspace', id: workspaceId }} />
    </>
  );
}
