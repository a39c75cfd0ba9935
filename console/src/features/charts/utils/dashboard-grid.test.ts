import fc from 'fast-check';
import { displayLayout, GRID_COLUMNS, resized, withoutTile, type Tile } from './grid-layout';
import { changeText, previousOverlay, previousWindow, PREVIOUS_SUFFIX } from '../../../lib/previous-period';

describe('displayLayout', () => {
  it('keeps saved tiles of listed workspaces and places the others below, each row sharing the width', () => {
    const saved: Tile[] = [
      { workspace_id: 'a', x: 0, y: 0, w: 8, h: 6 },
      { workspace_id: 'gone', x: 8, y: 0, w: 4, h: 6 },
    ];
    expect(displayLayout([['a', 'b', 'c'], ['d']], saved)).toEqual([
      { workspace_id: 'a', x: 0, y: 0, w: 8, h: 6 },
      { workspace_id: 'b', x: 0, y: 6, w: 6, h: 8 },
      { workspace_id: 'c', x: 6, y: 6, w: 6, h: 8 },
      { workspace_id: 'd', x: 0, y: 14, w: 12, h: 8 },
    ]);
  });

  it('lays out any rows on the grid, each workspace once, none overlapping', () => {
    const ids = fc.uniqueArray(fc.stringMatching(/^[a-z]{1,4}$/), { maxLength: 30 });
    fc.assert(
      fc.property(ids, fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 30 }), (workspaces, cuts) => {
        const rows: string[][] = [];
        let at = 0;
        for (const cut of cuts) {
          if (at >= workspaces.length) break;
          rows.push(workspaces.slice(at, at + cut));
          at += cut;
        }
        if (at < workspaces.length) rows.push(workspaces.slice(at));
        const tiles = displayLayout(rows, undefined);
        expect(tiles.map((t) => t.workspace_id).sort()).toEqual([...workspaces].sort());
        for (const tile of tiles) expect(tile.x + tile.w).toBeLessThanOrEqual(GRID_COLUMNS);
        for (const a of tiles)
          for (const b of tiles) {
            if (a === b) continue;
            const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
            expect(apart).toBe(true);
          }
      }),
    );
  });

  it('resizes a tile within the grid, and removes one', () => {
    const tiles: Tile[] = [{ workspace_id: 'a', x: 8, y: 0, w: 4, h: 8 }];
    expect(resized(tiles, 'a', 6)).toEqual([{ workspace_id: 'a', x: 6, y: 0, w: 6, h: 8 }]);
    expect(withoutTile(tiles, 'a')).toEqual([]);
  });
});

describe('previous period', () => {
  it('doubles a relative window and ends it where the current one starts', () => {
    expect(previousWindow('-24h', 'now')).toEqual({ from: '-48h', to: '-24h' });
    expect(previousWindow('-6M', 'now')).toEqual({ from: '-12M', to: '-6M' });
  });

  it('shifts an absolute window back by its own length', () => {
    expect(previousWindow('2026-03-10T00:00:00.000Z', '2026-03-12T00:00:00.000Z')).toEqual({
      from: '2026-03-08T00:00:00.000Z',
      to: '2026-03-10T00:00:00.000Z',
    });
    expect(previousWindow('2026-03-10T00:00:00.000Z', 'now', Date.parse('2026-03-11T00:00:00.000Z'))).toEqual({
      from: '2026-03-09T00:00:00.000Z',
      to: '2026-03-10T00:00:00.000Z',
    });
    expect(previousWindow('yesterday', 'now')).toBeUndefined();
  });

  it("lays the previous period's points on the current times, series by series", () => {
    const current = [{ name: 'GET /a', points: [[100, 1] as [number, number | null], [200, 2] as [number, number | null]] }];
    const previous = [
      { name: 'GET /a', points: [[0, 5] as [number, number | null]] },
      { name: 'GET /b', points: [[0, 9] as [number, number | null]] },
    ];
    expect(previousOverlay(current, previous)).toEqual([
      {
        name: `GET /a${PREVIOUS_SUFFIX}`,
        dashed: true,
        points: [
          [100, 5],
          [200, null],
        ],
      },
    ]);
  });

  it('states the change as a signed percentage', () => {
    expect(changeText(112, 100)).toBe('+12%');
    expect(changeText(96.5, 100)).toBe('−3.5%');
    expect(changeText(100, 100)).toBe('±0%');
    expect(changeText(5, 0)).toBeUndefined();
    expect(changeText(null, 3)).toBeUndefined();
  });
});
