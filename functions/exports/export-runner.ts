import type { ExportStatus } from '../../schemas/resources/export-job';
import type { SearchRequest } from '../../schemas/search-tree';
import { parseSearchRequest } from '../search/dsl';
import type { SearchableIndex, SearchContext } from '../search/port';
import { isServiceError } from '../shared/errors';
import { PartBuilder } from './export-encoding';
import type { ExportFiles } from './export-files';
import { EXPORT_LEASE_MS, EXPORT_RETENTION_DAYS, FINISHED, type ExportJob, type ExportJobs, type ExportRef } from './export-jobs';

/**
 * Runs an export job from where it stands: pages through the search port in a fixed order (events
 * by time then id, profiles by id; `search_after` from the stored cursor), writes each part to S3,
 * then records it with the new cursor. A part is recorded only after its file is written, and the
 * next part starts from the recorded cursor, so a runner stopped anywhere (a crash, the Lambda's
 * time budget) is continued by the next without a row missing or written twice.
 */

export interface ExportRunDeps {
  readonly jobs: ExportJobs;
  readonly files: ExportFiles;
  readonly index: SearchableIndex;
  readonly now: () => Date;
}

export interface ExportRunLimits {
  /** Documents a search page asks for (the search API's maximum by default). */
  readonly pageSize?: number;
  readonly partRows?: number;
  /** Uncompressed bytes after which a part is closed (it may pass them by one page). */
  readonly partBytes?: number;
  /** Epoch ms after which no new part is started (the job is left running for the next runner). */
  readonly deadline?: number;
  /** How long past the deadline a page query may run before it is stopped (default PAGE_GRACE_MS). */
  readonly pageGraceMs?: number;
  /** Test hook: called after a part's file is written, before it is recorded (a crash there must lose nothing). */
  readonly afterPartWritten?: (number: number) => void | Promise<void>;
}

export const EXPORT_PAGE_SIZE = 1000;
/**
 * How long past the deadline a page query may still run: then it is stopped and the run pauses
 * (the half-read part is dropped; the next runner reads it again from the recorded cursor). Within
 * the Lambda's 90 s kept back for finishing a part.
 */
export const PAGE_GRACE_MS = 45_000;
export const PART_MAX_ROWS = 100_000;
export const PART_MAX_BYTES = 64 * 1024 * 1024;

/** What a run ended with: the job's status, or `paused` (deadline) / `taken` (another runner holds it). */
export type ExportRunOutcome = ExportStatus | 'paused' | 'taken';

class LeaseHeld extends Error {}

export async function runExport(deps: ExportRunDeps, ref: ExportRef, limits: ExportRunLimits = {}): Promise<ExportRunOutcome> {
  const pageSize = limits.pageSize ?? EXPORT_PAGE_SIZE;
  const partRows = limits.partRows ?? PART_MAX_ROWS;
  const partBytes = limits.partBytes ?? PART_MAX_BYTES;
  let job: ExportJob;
  try {
    job = await take(deps, ref);
  } catch (error) {
    if (error instanceof LeaseHeld) return 'taken';
    throw error;
  }
  if (FINISHED.has(job.status)) return job.status;
  // Page queries are stopped a little past the deadline, so one slow page cannot outlive the runner.
  const stopReading =
    limits.deadline === undefined ? undefined : AbortSignal.timeout(Math.max(0, limits.deadline + (limits.pageGraceMs ?? PAGE_GRACE_MS) - Date.now()));
  const context: SearchContext = { ...contextOf(job), ...(stopReading ? { signal: stopReading } : {}) };
  const base = baseRequest(job, pageSize);
  let settleInFlight: () => Promise<ExportRunOutcome | undefined> = async () => undefined;
  try {
    if (job.estimated_total === null) {
      const total = await deps.index.countMatching(context, base.query);
      job = await deps.jobs.update(ref, (current) => ({ ...current, estimated_total: total }));
    }
    // One part in flight: its file is written and recorded while the next part's pages are read.
    // Parts are still recorded one after the other, each only after its file is written.
    let inFlight: Promise<Recorded> | undefined;
    const settle = async (): Promise<ExportRunOutcome | undefined> => {
      const recorded = inFlight === undefined ? undefined : await inFlight;
      inFlight = undefined;
      return recorded === undefined || recorded.ok ? undefined : recorded.outcome;
    };
    settleInFlight = settle;
    let number = job.parts.length + 1;
    let cursor = job.cursor;
    for (;;) {
      if (limits.deadline !== undefined && Date.now() >= limits.deadline) return (await settle()) ?? 'paused';
      const part = new PartBuilder(job.format, job.fields);
      let finished = false;
      while (part.rowCount < partRows && part.textBytes < partBytes) {
        const size = Math.min(pageSize, partRows - part.rowCount);
        const page = await deps.index.search(context, { ...base, size, ...(cursor ? { search_after: cursor } : {}) });
        const hits = page.hits.hits;
        part.add(hits);
        if (hits.length > 0) cursor = hits[hits.length - 1]!.sort ?? null;
        if (hits.length < size) {
          finished = true;
          break;
        }
      }
      const stopped = await settle();
      if (stopped) return stopped;
      inFlight = writeAndRecord(deps, ref, limits, { number: number++, part, cursor, finished, format: job.format });
      // Awaited by settle(); until then a failure must not count as unhandled.
      inFlight.catch(() => undefined);
      if (finished) return (await settle()) ?? 'completed';
    }
  } catch (error) {
    // A page stopped past the deadline: what was recorded stands, and the next runner goes on from there.
    if (stopReading?.aborted) return (await settleInFlight()) ?? 'paused';
    // A refusal (the stored query no longer valid, say) will not pass on a retry: the job fails.
    if (isServiceError(error) && error.status < 500) {
      await deps.jobs.update(ref, (current) =>
        FINISHED.has(current.status)
          ? current
          : { ...current, status: 'failed', error: error.message, lease_until: null, completed_at: deps.now().toISOString() },
      );
      return 'failed';
    }
    throw error;
  }
}

type Recorded = { ok: true } | { ok: false; outcome: ExportRunOutcome };

/** Writes a part's file, then records it with the cursor after its last row (and the job's end when it is the last). */
async function writeAndRecord(
  deps: ExportRunDeps,
  ref: ExportRef,
  limits: ExportRunLimits,
  next: { number: number; part: PartBuilder; cursor: ExportJob['cursor']; finished: boolean; format: ExportJob['format'] },
): Promise<Recorded> {
  const { number, part, cursor, finished } = next;
  let written: ExportJob['parts'][number] | undefined;
  if (part.rowCount > 0) {
    const key = deps.files.partKey(ref, number, next.format);
    const file = await part.file();
    await deps.files.put(key, file);
    await limits.afterPartWritten?.(number);
    written = { number, key, rows: part.rowCount, bytes: file.byteLength };
  }
  let recorded = false;
  const job = await deps.jobs.update(ref, (current) => {
    recorded = false;
    // Cancelled meanwhile, or recorded by another runner: this one stops without writing.
    if (current.status !== 'running' || current.parts.length !== number - 1) return current;
    recorded = true;
    const now = deps.now();
    return {
      ...current,
      parts: written ? [...current.parts, written] : current.parts,
      exported: current.exported + part.rowCount,
      cursor,
      lease_until: new Date(now.getTime() + EXPORT_LEASE_MS).toISOString(),
      ...(finished
        ? {
            status: 'completed' as const,
            completed_at: now.toISOString(),
            expires_at: new Date(now.getTime() + EXPORT_RETENTION_DAYS * 86_400_000).toISOString(),
            lease_until: null,
          }
        : {}),
    };
  });
  if (recorded) return { ok: true };
  // A cancelled job's files are deleted: the part this runner wrote after that goes too.
  if (written && job.status === 'cancelled') await deps.files.deleteAll(ref);
  return { ok: false, outcome: job.status === 'running' ? 'taken' : job.status };
}

/** Marks the job running under this runner's lease, unless another runner's lease is live. */
async function take(deps: ExportRunDeps, ref: ExportRef): Promise<ExportJob> {
  return deps.jobs.update(ref, (current) => {
    if (FINISHED.has(current.status)) return current;
    const now = deps.now().getTime();
    if (current.status === 'running' && current.lease_until !== null && Date.parse(current.lease_until) > now) throw new LeaseHeld();
    return { ...current, status: 'running', lease_until: new Date(now + EXPORT_LEASE_MS).toISOString() };
  });
}

function contextOf(job: ExportJob): SearchContext {
  return {
    scope: { org_id: job.org_id, app_id: job.app_id },
    kind: job.kind,
    ...(job.kind === 'events' ? { range: { ...(job.from ? { from: new Date(job.from) } : {}), ...(job.to ? { to: new Date(job.to) } : {}) } } : {}),
    timeZone: job.time_zone,
    // Relative dates inside the query mean what they meant when the export was asked for.
    now: new Date(job.created_at),
  };
}

/** The search every page runs: the job's query in a fixed order, sources whole, no totals. */
export function baseRequest(job: Pick<ExportJob, 'kind' | 'query' | 'time_zone'>, pageSize: number): SearchRequest {
  const sort = job.kind === 'events' ? [{ time: 'asc' }] : [{ _id: 'asc' }];
  return parseSearchRequest({ query: job.query ?? { match_all: {} }, size: pageSize, sort, track_total_hits: false }, job.kind, { timeZone: job.time_zone });
}
