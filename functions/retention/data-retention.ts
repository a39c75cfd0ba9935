import { currentPeriodsByCompany, type SubscriptionFacts } from '../cohorts/subscription-periods';
import type { AppStore } from '../organisations/app-store';
import type { SearchableIndex, SearchContext } from '../search/port';
import { mapWithConcurrency } from '../shared/concurrency';
import type { RegisteredApp } from '../resources/app-registry';
import type { RetainingApps } from './retaining-apps';
import { retentionCutoff } from './retention-cutoff';

/**
 * Per-app data retention: the events of an app older than its `data_retention_days` are deleted
 * from the search index, on both backends through the port's deleteMatching (DuckDB at once,
 * OpenSearch as a delete-by-query task: its monthly indices hold every app's events, so one app's
 * retention cannot drop a whole index). The cut never enters a current billing period
 * (retention-cutoff.ts). Run by the every-minute maintenance schedule, each app at most once an
 * hour per process; a pass with nothing past the cut costs one count. The same hourly pass asks
 * the index to compact what writes no longer reach (the port's compactSettled: OpenSearch merges
 * each settled month into one segment), for every app at once.
 */

export interface DataRetentionDeps {
  readonly apps: Pick<AppStore, 'getApp'>;
  readonly registry: Pick<RetainingApps, 'list' | 'forgetListed'>;
  readonly index: SearchableIndex;
  readonly subscriptions: SubscriptionFacts;
  readonly now?: () => Date;
}

export interface RetentionOutcome {
  readonly org_id: string;
  readonly app_id: string;
  readonly cutoff: string;
  /** Events deleted (so far, while an OpenSearch task runs on). */
  readonly deleted: number;
  readonly task?: string;
}

export interface RetentionPass {
  readonly outcomes: RetentionOutcome[];
  readonly failures: { org_id: string; app_id: string; error: string }[];
  /** What the index started compacting in this pass (its hourly turn). */
  readonly compacted?: readonly string[];
  readonly compactionError?: string;
}

const PASS_EVERY_MS = 3_600_000;
const APPS_IN_FLIGHT = 2;

export class DataRetention {
  private readonly lastPass = new Map<string, number>();
  private lastCompaction = 0;
  private readonly now: () => Date;

  constructor(private readonly deps: DataRetentionDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Every registered app whose last pass here is an hour old; one app's failure does not stop the others. */
  async applyAll(): Promise<RetentionPass> {
    const now = this.now().getTime();
    const due = (await this.deps.registry.list()).filter(({ org_id, app_id }) => now - (this.lastPass.get(`${org_id}/${app_id}`) ?? 0) >= PASS_EVERY_MS);
    const outcomes: RetentionOutcome[] = [];
    const failures: RetentionPass['failures'] = [];
    await mapWithConcurrency(due, APPS_IN_FLIGHT, async (listed) => {
      const { org_id, app_id } = listed;
      try {
        const outcome = await this.applyTo(org_id, app_id, listed);
        this.lastPass.set(`${org_id}/${app_id}`, now);
        if (outcome) outcomes.push(outcome);
      } catch (error) {
        failures.push({ org_id, app_id, error: error instanceof Error ? error.message : String(error) });
      }
    });
    return { outcomes, failures, ...(await this.compactIfDue(now)) };
  }

  /** The index's compaction, at most hourly; its failure is reported beside the pass, as an app's is. */
  private async compactIfDue(now: number): Promise<Pick<RetentionPass, 'compacted' | 'compactionError'>> {
    if (now - this.lastCompaction < PASS_EVERY_MS) return {};
    this.lastCompaction = now;
    try {
      return { compacted: await this.deps.index.compactSettled(new Date(now)) };
    } catch (error) {
      return { compactionError: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Deletes the app's events past its cut now; undefined when it keeps its events (it leaves the registry). */
  async applyTo(orgId: string, appId: string, listed?: RegisteredApp): Promise<RetentionOutcome | undefined> {
    const app = await this.deps.apps.getApp(orgId, appId);
    const days = app?.settings.data_retention_days;
    if (typeof days !== 'number') {
      await this.deps.registry.forgetListed(listed ?? { org_id: orgId, app_id: appId });
      return undefined;
    }
    const now = this.now();
    const scope = { org_id: orgId, app_id: appId };
    const periods = await currentPeriodsByCompany(this.deps.subscriptions, scope, now);
    const cutoff = retentionCutoff(
      now,
      days,
      [...periods.values()].map((period) => period.start),
    );
    const context: SearchContext = { scope, kind: 'events', range: { to: cutoff }, timeZone: 'UTC', now };
    const base = { org_id: orgId, app_id: appId, cutoff: cutoff.toISOString() };
    if ((await this.deps.index.countMatching(context, { type: 'match_all' })) === 0) return { ...base, deleted: 0 };
    const progress = await this.deps.index.deleteMatching(context, { type: 'match_all' });
    return { ...base, deleted: progress.deleted, ...(progress.task === undefined ? {} : { task: progress.task }) };
  }
}
