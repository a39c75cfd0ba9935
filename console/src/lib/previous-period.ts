import type { Series } from '../components/chart-types';

/**
 * "Compared with the previous period": the window just before a chart's own, of the same length,
 * and the previous period's values laid over the current ones point by point.
 */

const RELATIVE = /^-(\d+)([smhdwM])$/;

/**
 * The window before `from`–`to`, of the same length: `-24h`–`now` gives `-48h`–`-24h` (relative
 * bounds stay relative, so the comparison moves with "now"); absolute bounds give absolute ones.
 * Undefined when a bound cannot be read.
 */
export function previousWindow(from: string, to: string, now = Date.now()): { from: string; to: string } | undefined {
  const relative = RELATIVE.exec(from);
  if (relative && to === 'now') return { from: `-${Number(relative[1]) * 2}${relative[2]}`, to: from };
  const start = Date.parse(from);
  const end = to === 'now' ? now : Date.parse(to);
  if (Number.isNaN(start) || Number.isNaN(end) || end <= start) return undefined;
  return { from: new Date(start - (end - start)).toISOString(), to: new Date(start).toISOString() };
}

export const PREVIOUS_SUFFIX = ' (previous period)';

/**
 * The previous period's series drawn on the current axis: its n-th point at the current n-th
 * point's time (both windows have the same length and interval), named with PREVIOUS_SUFFIX and
 * marked to be drawn dashed. A series the current window does not have is left out.
 */
export function previousOverlay(current: readonly Series[], previous: readonly Series[]): Series[] {
  const byName = new Map(previous.map((series) => [series.name, series]));
  return current.flatMap((series) => {
    const before = byName.get(series.name);
    if (!before) return [];
    return [{ name: `${series.name}${PREVIOUS_SUFFIX}`, dashed: true, points: series.points.map(([at], i) => [at, before.points[i]?.[1] ?? null]) }];
  });
}

/** The change from the previous value, as a signed percentage ("+12%", "−3.5%"); undefined without a base. */
export function changeText(current: number | null, previous: number | null): string | undefined {
  if (current === null || previous === null || previous === 0) return undefined;
  const change = ((current - previous) / Math.abs(previous)) * 100;
  const rounded = Math.abs(change) >= 10 ? Math.round(change) : Math.round(change * 10) / 10;
  if (rounded === 0) return '±0%';
  return `${rounded > 0 ? '+' : '−'}${Math.abs(rounded)}%`;
}
