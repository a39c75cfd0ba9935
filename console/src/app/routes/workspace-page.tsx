import { Link, useParams } from 'react-router';
import { ErrorMessage } from '../../components/error-message';
import { Loading } from '../../components/loading';
import { PageHeader } from '../../components/page-header';
import { useWorkspace } from '../../features/charts/api/workspaces';
import { ChartPanel } from '../../features/charts/components/chart-panel';
import { specOfWorkspaceChart, specToParams, TIME_SERIES_VIEW } from '../../features/charts/utils/chart-spec';

/** A saved workspace, drawn again exactly from its stored chart. */
export function WorkspacePage() {
  const { workspaceId = '' } = useParams();
  const workspace = useWorkspace(workspaceId);
  if (workspace.isPending) return <Loading label="Loading the workspace…" />;
  if (workspace.error) return <ErrorMessage error={workspace.error} />;
  const spec = specOfWorkspaceChart(workspace.data.chart);
  return (
    <>
      <PageHeader title={workspace.data.name}>
        <Link to={`/charts/new?${specToParams(spec).toString()}`}>Edit as a new chart</Link>
      </PageHeader>
      {workspace.data.chart.view === TIME_SERIES_VIEW ? (
        <ChartPanel spec={spec} drawings={workspace.data.drawings} />
      ) : (
        <p>This workspace's chart view (<code>{workspace.data.chart.view}</code>) is not drawn by the console yet.</p>
      )}
    </>
  );
}
