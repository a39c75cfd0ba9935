/**
 * How late events arrive: the distribution of arrival (received_at) minus event time, counted in
 * fixed buckets by both backends, so that a grace period can be chosen from what was observed.
 */

/** Upper bounds (exclusive) of the buckets, in milliseconds; a last bucket holds everything later. */
export const ARRIVAL_LAG_EDGES_MS: readonly number[] = [
  60_000, // 1 minute
  5 * 60_000,
  15 * 60_000,
  3_600_000, // 1 hour
  6 * 3_600_000,
  24 * 3_600_000,
  3 * 86_400_000,
];

export interface ArrivalLags {
  /** Events with a known arrival time, in the bucket counts. */
  readonly events: number;
  /** One count per bucket: below ARRIVAL_LAG_EDGES_MS[0], between each pair of edges, then the rest. */
  readonly counts: readonly number[];
}

/** The bucket of a lag (events time-stamped after they arrived, a client clock ahead, count as on time). */
export function lagBucket(lagMs: number): number {
  const found = ARRIVAL_LAG_EDGES_MS.findIndex((edge) => lagMs < edge);
  return found === -1 ? ARRIVAL_LAG_EDGES_MS.length : found;
}

/**
 * The smallest edge that at least `share` of the events arrived within; undefined when there are no
 * events, or when more than 1 − share arrived after the last edge.
 */
export function lagCovering(lags: ArrivalLags, share: number): number | undefined {
  if (lags.events === 0) return undefined;
  let seen = 0;
  for (let bucket = 0; bucket < ARRIVAL_LAG_EDGES_MS.length; bucket += 1) {
    seen += lags.counts[bucket] ?? 0;
    if (seen >= share * lags.events) return ARRIVAL_LAG_EDGES_MS[bucket];
  }
  return undefined;
}
