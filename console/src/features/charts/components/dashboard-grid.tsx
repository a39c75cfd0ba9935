import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import ReactGridLayout, { useContainerWidth, verticalCompactor, type Layout } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { PageHeader } from '../../../components/page-header';
import { RangeSelect } from '../../../components/range-select';
import { useDashboard, useDeleteDashboard, useUpdateDashboard } from '../api/dashboards';
import { WorkspaceTile } from './workspace-tile';
import { QueryState } from '../../../components/query-state';
import { displayLayout, GRID_COLUMNS, GRID_ROW_PX, MIN_TILE_HEIGHT, resized, TILE_WIDTHS, withoutTile, type Tile } from '../utils/grid-layout';

const tilesOf = (layout: Layout): Tile[] => layout.map(({ i, x, y, w, h }) => ({ workspace_id: i, x, y, w, h }));

/**
 * A dashboard: its workspaces on a 12-column grid, dragged by their handle and resized by their
 * corner (or from the keyboard with each tile's width list), the layout saved as it changes; one
 * time range for every tile or each workspace's own, and the previous period beside each chart.
 */
export function DashboardGrid({ dashboardId }: { dashboardId: string }) {
  const dashboard = useDashboard(dashboardId);
  const update = useUpdateDashboard();
  const remove = useDeleteDashboard();
  const navigate = useNavigate();
  const [from, setFrom] = useState('');
  const [compare, setCompare] = useState(false);
  const [renaming, setRenaming] = useState<string>();
  // The layout being saved is drawn until the saved one is read back, so a dropped tile stays put.
  const [saving, setSaving] = useState<Tile[]>();
  const rows = dashboard.data?.workspace_ids;
  const saved = dashboard.data?.layout;
  const stored = useMemo(() => displayLayout(rows ?? [], saved), [rows, saved]);
  if (!dashboard.isSuccess) return <QueryState query={dashboard} loading="Loading the dashboard…" />;
  const { name } = dashboard.data;
  const tiles = saving ?? stored;
  const save = (next: Tile[]) => {
    setSaving(next);
    update.mutate({ id: dashboardId, layout: next }, { onSettled: () => setSaving(undefined) });
  };
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
          <RangeSelect value={from} onChange={setFrom} first={<option value="">Each workspace's own</option>} />
        </label>
        <label className="checkbox">
          <input type="checkbox" name="compare" checked={compare} onChange={(e) => setCompare(e.target.checked)} /> Compare with the previous period
        </label>
      </form>
      {tiles.length === 0 ? (
        <EmptyState title="This dashboard is empty">
          <p>
            Open a saved workspace and click <strong>Add to dashboard</strong>.
          </p>
        </EmptyState>
      ) : (
        <TileGrid tiles={tiles} onChange={save} from={from} compare={compare} />
      )}
    </>
  );
}

/**
 * The grid of a dashboard's tiles. Its own component, mounted once there are tiles: the width hook
 * measures its container when it mounts, and the container must exist by then.
 */
function TileGrid({ tiles, onChange, from, compare }: { tiles: Tile[]; onChange: (tiles: Tile[]) => void; from: string; compare: boolean }) {
  // Measured before the first draw, so tiles are not laid out at a default width first.
  const { width, containerRef, mounted } = useContainerWidth({ measureBeforeMount: true });
  const layout: Layout = tiles.map((tile) => ({ i: tile.workspace_id, x: tile.x, y: tile.y, w: tile.w, h: tile.h, minH: MIN_TILE_HEIGHT }));
  return (
    <div ref={containerRef} className="dashboard-grid">
      {mounted && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: GRID_COLUMNS, rowHeight: GRID_ROW_PX, margin: [16, 16], containerPadding: [0, 0] }}
          dragConfig={{ enabled: true, handle: '.tile-handle' }}
          resizeConfig={{ enabled: true, handles: ['se'] }}
          compactor={verticalCompactor}
          onDragStop={(next) => onChange(tilesOf(next))}
          onResizeStop={(next) => onChange(tilesOf(next))}
        >
          {tiles.map((tile) => (
            <div key={tile.workspace_id} className="grid-tile" data-workspace-id={tile.workspace_id}>
              <WorkspaceTile
                workspaceId={tile.workspace_id}
                {...(from ? { from } : {})}
                compare={compare}
                handle={
                  <span className="tile-handle" title="Drag to move; drag the bottom-right corner to resize" aria-hidden="true">
                    ⠿
                  </span>
                }
                actions={
                  <div className="tile-actions">
                    <label>
                      Width{' '}
                      <select name="tile_width" value={tile.w} onChange={(e) => onChange(resized(tiles, tile.workspace_id, Number(e.target.value)))}>
                        {!TILE_WIDTHS.some((choice) => choice.columns === tile.w) && <option value={tile.w}>{tile.w} of 12 columns</option>}
                        {TILE_WIDTHS.map((choice) => (
                          <option key={choice.columns} value={choice.columns}>
                            {choice.label}
                          </option>
                        ))}
                      </select>
                    </label>{' '}
                    <button type="button" className="secondary" onClick={() => onChange(withoutTile(tiles, tile.workspace_id))}>
                      Remove from dashboard
                    </button>
                  </div>
                }
              />
            </div>
          ))}
        </ReactGridLayout>
      )}
    </div>
  );
}
