import type { ApiSchema } from '../../../lib/api-types';

/** One workspace's place on a dashboard's grid (the API's DashboardTile). */
export type Tile = NonNullable<ApiSchema<'Dashboard'>['layout']>[number];

export const GRID_COLUMNS = 12;
/** A grid row is this many pixels high; a new tile is DEFAULT_TILE_HEIGHT rows. */
export const GRID_ROW_PX = 40;
export const DEFAULT_TILE_HEIGHT = 8;
export const MIN_TILE_HEIGHT = 2;
/** The widths a tile can be set to from the keyboard (the grid's handles resize to any). */
export const TILE_WIDTHS = [
  { columns: 3, label: 'Quarter' },
  { columns: 4, label: 'Third' },
  { columns: 6, label: 'Half' },
  { columns: 8, label: 'Two thirds' },
  { columns: 12, label: 'Full width' },
] as const;

type Rows = readonly (readonly string[])[];

/**
 * The tiles a dashboard is drawn with: its saved tiles of the workspaces it lists, and the others
 * (added by "Add to dashboard", or a dashboard saved before the grid) below them, a row at a time,
 * each row's tiles sharing the width.
 */
export function displayLayout(rows: Rows, saved: readonly Tile[] | undefined): Tile[] {
  const listed = new Set(rows.flat());
  const tiles = (saved ?? []).filter((tile) => listed.has(tile.workspace_id));
  const placed = new Set(tiles.map((tile) => tile.workspace_id));
  let top = tiles.reduce((bottom, tile) => Math.max(bottom, tile.y + tile.h), 0);
  for (const row of rows) {
    const missing = row.filter((id) => !placed.has(id));
    if (missing.length === 0) continue;
    const width = Math.max(3, Math.floor(GRID_COLUMNS / missing.length));
    missing.forEach((id, i) => {
      const x = (i * width) % GRID_COLUMNS;
      const y = top + Math.floor((i * width) / GRID_COLUMNS) * DEFAULT_TILE_HEIGHT;
      tiles.push({ workspace_id: id, x: Math.min(x, GRID_COLUMNS - width), y, w: width, h: DEFAULT_TILE_HEIGHT });
      placed.add(id);
    });
    top = tiles.reduce((bottom, tile) => Math.max(bottom, tile.y + tile.h), 0);
  }
  return tiles;
}

/** The layout with one tile set to `columns` wide, moved left as far as it must to stay on the grid. */
export function resized(tiles: readonly Tile[], workspaceId: string, columns: number): Tile[] {
  return tiles.map((tile) => (tile.workspace_id === workspaceId ? { ...tile, w: columns, x: Math.min(tile.x, GRID_COLUMNS - columns) } : tile));
}

/** The layout without one workspace. */
export function withoutTile(tiles: readonly Tile[], workspaceId: string): Tile[] {
  return tiles.filter((tile) => tile.workspace_id !== workspaceId);
}
