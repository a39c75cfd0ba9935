/** How often an active template goes out: `1w` → "every week", no period → "once per recipient". */
export function periodText(period: string | undefined): string {
  if (!period) return 'once per recipient';
  const match = /^(\d+)([mhdwM])$/.exec(period);
  if (!match) return period;
  const units: Record<string, string> = { m: 'minute', h: 'hour', d: 'day', w: 'week', M: 'month' };
  const count = Number(match[1]);
  return count === 1 ? `every ${units[match[2]!]}` : `every ${count} ${units[match[2]!]}s`;
}
