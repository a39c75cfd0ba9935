import type { Client } from '@opensearch-project/opensearch';
import { DATA_RETENTION_DAYS } from '../../../schemas/app';
import { eventsIndexPattern } from './naming';

/**
 * Compaction of settled months. An events index is written while its month runs and for the
 * collector's 30-day window after it, so it ends as tens of segments, each with its own term
 * dictionaries: 399–416 bytes an event at 1 M on the bench's data against 386 for the same
 * indices merged into one segment each. Once a month is settled (as many days after it ended as the
 * shortest data retention keeps, for the same reason: the collector's window and the dedup claims'
 * few days more) it is force-merged into one segment per shard, as Amazon's own
 * Index State Management would. The merge runs on the cluster as a task; a month written again
 * later (an app's backfill) is merged again on a later pass.
 */

const SETTLED_AFTER_DAYS = DATA_RETENTION_DAYS.min;
const DAY_MS = 86_400_000;

/** The month an events index holds (`<prefix>events-YYYY.MM`), as the instant its month ends; undefined for other names. */
export function monthEnd(prefix: string, index: string): Date | undefined {
  const head = `${prefix}events-`;
  if (!index.startsWith(head)) return undefined;
  const [year, month, ...rest] = index.slice(head.length).split('.');
  if (rest.length > 0 || year?.length !== 4 || month?.length !== 2) return undefined;
  const y = Number(year);
  const m = Number(month);
  if (!Number.isInteger(y) || !Number.isInteger(m) || m < 1 || m > 12) return undefined;
  return new Date(Date.UTC(y, m, 1));
}

/** Whether no normal write reaches the index's month any more. */
export function isSettled(prefix: string, index: string, now: Date): boolean {
  const end = monthEnd(prefix, index);
  return end !== undefined && now.getTime() >= end.getTime() + SETTLED_AFTER_DAYS * DAY_MS;
}

interface ShardSegments {
  readonly routing?: { readonly primary?: boolean };
  readonly segments?: { readonly count?: number };
}

/** Force-merges every settled events index that has a primary shard of more than one segment; returns the indices it started on. */
export async function compactSettledMonths(client: Client, prefix: string, now: Date): Promise<string[]> {
  // A finished merge shows in the segment stats only after a refresh (an idle index is not refreshed on its own).
  await client.indices.refresh({ index: eventsIndexPattern(prefix), allow_no_indices: true, ignore_unavailable: true });
  const response = await client.indices.stats({
    index: eventsIndexPattern(prefix),
    metric: 'segments',
    level: 'shards',
    expand_wildcards: 'open',
  });
  const indices = (response.body.indices ?? {}) as Record<string, { shards?: Record<string, ShardSegments[]> }>;
  const due = Object.entries(indices)
    .filter(([name]) => isSettled(prefix, name, now))
    .filter(([, stats]) =>
      Object.values(stats.shards ?? {}).some((copies) => copies.some((copy) => copy.routing?.primary === true && (copy.segments?.count ?? 0) > 1)),
    )
    .map(([name]) => name)
    .sort();
  if (due.length === 0) return [];
  // A month of events takes minutes to merge: the cluster runs it as a task, which this pass does not wait for.
  await client.indices.forcemerge({ index: due.join(','), max_num_segments: 1, wait_for_completion: false });
  return due;
}
