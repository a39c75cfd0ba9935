import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { useWorkspace } from '../api/workspaces';
import { specOfWorkspaceChart, VIEWS } from '../utils/chart-spec';
import { ChartPanel } from './chart-panel';

/**
 * One workspace on a dashboard: its name (opening it) and its chart, drawn from its own stored
 * query, over the dashboard's time range when it sets one, beside the previous period with
 * `compare`. `handle` is what the grid drags it by; `actions` are the dashboard's controls.
 */
export function WorkspaceTile({
  workspaceId,
  from,
  compare = false,
  handle,
  actions,
}: {
  workspaceId: string;
  from?: string;
  compare?: boolean;
  handle?: ReactNode;
  actions?: ReactNode;
}) {
  const workspace = useWorkspace(workspaceId);
  if (workspace.isPending)
    return (
      <div className="tile">
        {handle}
        <Loading label="Loading a workspace…" />
      </div>
    );
  if (workspace.error)
    return (
      <div className="tile">
        {handle}
        <ErrorMessage error={workspace.error} />
        {actions}
      </div>
    );
  const { chart, name, drawings } = workspace.data;
  const spec = specOfWorkspaceChart(chart);
  return (
    <section className="tile" aria-label={name}>
      <h2>
        {handle}
        <Link to={`/workspaces/${encodeURIComponent(workspaceId)}`}>{name}</Link>
      </h2>
      {chart.view in VIEWS ? (
        <ChartPanel spec={from ? { ...spec, from, to: 'now' } : spec} drawings={drawings} compare={compare} />
      ) : (
        <p className="muted">
          Its view (<code>{chart.view}</code>) is not drawn by the console.
        </p>
      )}
      {actions}
    </section>
  );
}
