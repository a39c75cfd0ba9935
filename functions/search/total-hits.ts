/**
 * `hits.total` under `track_total_hits`, one rule for both backends, always an integer (the spec's
 * shape; OpenSearch itself answers `{value, relation}` or nothing):
 * - true (the default): every match, exactly;
 * - a number N: the matches counted up to N, min(matches, N) — OpenSearch's `value`, whose relation
 *   turns "gte" past N;
 * - false: nothing is counted (OpenSearch leaves the total out, and counting is what a pager wants
 *   to skip): the matches the page itself proves, `from` + its hits, or 0 for an empty page.
 */

export type TrackTotalHits = boolean | number;

export function trackedTotal(matches: number, track: true | number): number {
  return track === true ? matches : Math.min(matches, track);
}

export function untrackedTotal(from: number, returned: number): number {
  return returned === 0 ? 0 : from + returned;
}
