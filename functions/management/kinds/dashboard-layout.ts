import type { DashboardTile } from '../../../schemas/resources/dashboard';
import { ValidationError } from '../../shared/errors';
import type { StoredDocument } from '../../resources/resource-store';

/**
 * A dashboard's grid layout and its rows (`workspace_ids`, the spec's shape) kept in agreement: a
 * layout sent alone sets the rows; rows sent alone keep the tiles of the workspaces still listed.
 */

type Rows = string[][];

/** The rows a grid shows: tiles grouped by their top row, each row in left-to-right order. */
export function rowsOfLayout(layout: readonly DashboardTile[]): Rows {
  const byTop = new Map<number, DashboardTile[]>();
  for (const tile of layout) byTop.set(tile.y, [...(byTop.get(tile.y) ?? []), tile]);
  return [...byTop.entries()].sort(([a], [b]) => a - b).map(([, tiles]) => tiles.sort((a, b) => a.x - b.x).map((tile) => tile.workspace_id));
}

/** The rows and layout to store, from what the body sent (`rowsSent`: whether it sent `workspace_ids`) and what is stored. */
export function settledLayout(
  body: { workspace_ids?: Rows; layout?: DashboardTile[] },
  rowsSent: boolean,
  current?: StoredDocument,
): { workspace_ids?: Rows; layout?: DashboardTile[] } {
  const { layout } = body;
  if (layout !== undefined) {
    if (!rowsSent) return { workspace_ids: rowsOfLayout(layout), layout };
    const listed = new Set((body.workspace_ids ?? []).flat());
    const stray = layout.findIndex((tile) => !listed.has(tile.workspace_id));
    if (stray >= 0) {
      throw new ValidationError('The layout places a workspace that workspace_ids does not list', [
        { field: `layout[${stray}].workspace_id`, reason: `is not among workspace_ids (${layout[stray]!.workspace_id})` },
      ]);
    }
    return { ...(body.workspace_ids === undefined ? {} : { workspace_ids: body.workspace_ids }), layout };
  }
  const stored = Array.isArray(current?.['layout']) ? (current['layout'] as DashboardTile[]) : undefined;
  if (!rowsSent || body.workspace_ids === undefined || stored === undefined)
    return body.workspace_ids === undefined ? {} : { workspace_ids: body.workspace_ids };
  const listed = new Set(body.workspace_ids.flat());
  return { workspace_ids: body.workspace_ids, layout: stored.filter((tile) => listed.has(tile.workspace_id)) };
}

/** The stored layout with workspace ids replaced (a copy's), tiles of workspaces not copied left out. */
export function layoutWithIds(doc: StoredDocument, ids: ReadonlyMap<string, string>): DashboardTile[] | undefined {
  if (!Array.isArray(doc['layout'])) return undefined;
  return (doc['layout'] as DashboardTile[]).flatMap((tile) => (ids.has(tile.workspace_id) ? [{ ...tile, workspace_id: ids.get(tile.workspace_id)! }] : []));
}
