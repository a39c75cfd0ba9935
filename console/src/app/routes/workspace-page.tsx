import { Link, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { useWorkspace } from '../../features/charts/api/workspaces';
import { AddToDashboardForm } from '../../features/charts/components/add-to-dashboard-form';
import { ChartPanel } from '../../features/charts/components/chart-panel';
import { ShareLinks } from '../../features/charts/components/share-links';
import { CustomerTemplateSettings } from '../../features/charts/components/customer-template-settings';
import { specOfWorkspaceChart, specToParams, VIEWS } from '../../features/charts/utils/chart-spec';
import { QueryState } from '../../components/query-state';

/** A saved workspace, drawn again exactly from its stored chart. */
export function WorkspacePage() {
  const { workspaceId = '' } = useParams();
  const navigate = useNavigate();
  const workspace = useWorkspace(workspaceId);
  if (!workspace.isSuccess) return <QueryState query={workspace} loading="Loading the workspace…" />;
  const { chart, name, drawings, template } = workspace.data;
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
      <CustomerTemplateSettings workspaceId={workspaceId} template={template} />
    </>
  );
}
