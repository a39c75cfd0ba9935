import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { PageHeader } from '../../../components/page-header';
import { RELATIVE_RANGES } from '../../../lib/time';
import { useDashboard, useDeleteDashboard, useUpdateDashboard } from '../api/dashboards';
import { WorkspaceTile } from './workspace-tile';
import { QueryState } from '../../../components/query-state';

type Rows = readonly (readonly string[])[];

/**
 * The rows with one tile removed (step 0), or moved up or down as a row of its own: past the row
 * before or after when it was alone in its row, else just before or after the rest of its row.
 */
function moved(rows: Rows, row: number, column: number, step: -1 | 1 | 0): string[][] {
  const copy = rows.map((r) => [...r]);
  const [id] = copy[row]!.splice(column, 1);
  const emptied = copy[row]!.length === 0;
  if (emptied) copy.splice(row, 1);
  if (step !== 0 && id !== undefined) {
    const at = step < 0 ? (emptied ? row - 1 : row) : row + 1;
    copy.splice(Math.max(0, Math.min(copy.length, at)), 0, [id]);
  }
  return copy;
}

/**
 * A dashboard: its workspaces in rows, in the order it stores them, over each one's own time range
 * or one range for all; renamed, reordered, a tile removed, or deleted in place.
 */
export function DashboardGrid({ dashboardId }: { dashboardId: string }) {
  const dashboard = useDashboard(dashboardId);
  const update = useUpdateDashboard();
  const remove = useDeleteDashboard();
  const navigate = useNavigate();
  const [from, setFrom] = useState('');
  const [renaming, setRenaming] = useState<string>();
  if (!dashboard.isSuccess) return <QueryState query={dashboard} loading="Loading the dashboard…" />;
  const { name } = dashboard.data;
  const rows = dashboard.data.workspace_ids.filter((row) => row.length > 0);
  const layOut = (next: Rows) => update.mutate({ id: dashboardId, rows: next });
  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (renaming !== undefined) update.mutate({ id: dashboardId, name: renaming.trim() }, { onSuccess: () => setRenaming(undefined) });
  };
  const deleteDashboard = () => {
    if (window.confirm(`Delete the dashboard ${name}? Its workspaces are kept.`)) remove.mutate(dashboardId, { onSuccess: () => void navigate('/dashboards') });
  };
  return (
    <>
      <PageHeader title={name}>
        <button type="button" className="secondary" onClick={() => setRenaming(name)}>
          Rename
        </button>{' '}
        <button type="button" className="secondary" onClick={deleteDashboard}>
          Delete dashboard
        </button>
      </PageHeader>
      {renaming !== undefined && (
        <form className="inline-form" onSubmit={rename} aria-label="Rename dashboard">
          <label>
            New name <input name="dashboard_name" value={renaming} onChange={(e) => setRenaming(e.target.value)} required maxLength={256} />
          </label>
          <button type="submit" disabled={update.isPending}>
            Save name
          </button>
          <button type="button" className="secondary" onClick={() => setRenaming(undefined)}>
            Cancel
          </button>
        </form>
      )}
      <ErrorMessage error={update.error ?? remove.error} />
      <form className="filter-bar" aria-label="Dashboard time range" onSubmit={(e) => e.preventDefault()}>
        <label>
          Time range of every tile
          <select name="from" value={from} onChange={(e) => setFrom(e.target.value)}>
            <option value="">Each workspace's own</option>
            {RELATIVE_RANGES.map((range) => (
              <option key={range.from} value={range.from}>
                {range.label}
              </option>
            ))}
          </select>
        </label>
      </form>
      {rows.length === 0 ? (
        <EmptyState title="This dashboard is empty">
          <p>
            Open a saved workspace and click <strong>Add to dashboard</strong>.
          </p>
        </EmptyState>
      ) : (
        rows.map((row, r) => (
          <div className="dashboard-row" key={`${r}-${row.join(',')}`}>
            {row.map((id, c) => (
              <WorkspaceTile
                key={id}
                workspaceId={id}
                {...(from ? { from } : {})}
                actions={
                  <div className="tile-actions">
                    <button type="button" className="secondary" disabled={r === 0 && row.length === 1} onClick={() => layOut(moved(rows, r, c, -1))}>
                      Move up
                    </button>{' '}
                    <button
                      type="button"
                      className="secondary"
                      disabled={r === rows.length - 1 && row.length === 1}
                      onClick={() => layOut(moved(rows, r, c, 1))}
                    >
                      Move down
                    </button>{' '}
                    <button type="button" className="secondary" onClick={() => layOut(moved(rows, r, c, 0))}>
                      Remove from dashboard
                    </button>
                  </div>
                }
              />
            ))}
          </div>
        ))
      )}
    </>
  );
}
