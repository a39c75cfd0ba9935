import type { AppStore } from '../organisations/app-store';
import type { SearchableIndex } from '../search/port';
import { mapWithConcurrency } from '../shared/concurrency';
import type { DataRetention, RetentionPass } from '../retention';
import { INLINE_PURGE_ITEMS, type AppPurger, type PurgeResult } from '../resources/app-purge';
import type { GovernedApp, GovernedApps } from './governed-apps';
import { GOVERNED_APPS_PARTITION } from '../resources/keys';
import { computeMembership, computeSampleRates, type MembershipProblem } from './membership';
import type { RuleConfigStore } from './rule-config-store';
import type { GovernanceRuleStore } from './rule-store';
import { selectByPlans, type BillingFacts } from './plan-selection';
import { readOncePerRun } from '../cohorts/subscription-periods';

/**
 * Recomputes what SDKs fetch from GET /v1/config for an app: the cohort membership of its rules and
 * of its cohorts with a sample rate, stored as a snapshot (RuleConfigStore) whose hash is copied onto
 * the app item, so the config ETag on every collector answer changes when membership does.
 *
 * Runs after every cohort, rule or app-setting change (management API's onGovernanceChange), and on
 * a schedule for all apps with rules or sampled cohorts (profiles change membership without any
 * management call). Those apps are a registry partition the refresher keeps itself, so the schedule
 * reads one partition instead of scanning the table.
 */
export { GOVERNED_APPS_PARTITION };

/** Apps refreshed at once by a scheduled run (each pages through the search index). */
const APPS_IN_FLIGHT = 4;

export interface RefreshResult {
  readonly org_id: string;
  readonly app_id: string;
  /** Membership hash now stored; absent when the app no longer exists. */
  readonly hash?: string;
  readonly changed: boolean;
  readonly problems: MembershipProblem[];
}

export interface GovernanceRefresherDeps {
  readonly apps: AppStore;
  /** The apps the schedule visits. */
  readonly governedApps: GovernedApps;
  /** Finishes purges of deleted apps (and removes what a refresh wrote for an app deleted meanwhile). */
  readonly purger: AppPurger;
  readonly rules: GovernanceRuleStore;
  readonly configs: RuleConfigStore;
  readonly index: SearchableIndex;
  /** Subscriptions, balances and catalog quotas, for rules with plans or a billing model. */
  readonly billing: BillingFacts;
  /** Per-app data retention, applied on the same schedule (functions/retention). */
  readonly retention?: Pick<DataRetention, 'applyAll'>;
  readonly now?: () => Date;
}

export class GovernanceRefresher {
  private readonly now: () => Date;
  /** One refresh per app at a time in this instance; a change during a run queues exactly one more. */
  private readonly running = new Map<string, { run: Promise<RefreshResult>; again?: Promise<RefreshResult> }>();

  constructor(private readonly deps: GovernanceRefresherDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** `listed`: the app's registry entry as the schedule listed it (else it is read before the rules). */
  refreshApp(orgId: string, appId: string, listed?: GovernedApp): Promise<RefreshResult> {
    const key = `${orgId}/${appId}`;
    const current = this.running.get(key);
    if (current) {
      // A change arrived while computing: the running pass may have read the old state, so run once more after it.
      current.again ??= current.run.catch(() => undefined).then(() => this.refreshApp(orgId, appId));
      return current.again;
    }
    const run = this.compute(orgId, appId, listed).finally(() => {
      if (this.running.get(key)?.run === run) this.running.delete(key);
    });
    this.running.set(key, { run });
    return run;
  }

  /**
   * Every app in the registry; one app's failure does not stop the others (it is reported). The
   * schedule's repeats between its runs call this alone (refresh-ticks.ts).
   */
  async refreshGovernedApps(): Promise<{ results: RefreshResult[]; failures: { org_id: string; app_id: string; error: string }[] }> {
    const apps = await this.deps.governedApps.list();
    const results: RefreshResult[] = [];
    const failures: { org_id: string; app_id: string; error: string }[] = [];
    await mapWithConcurrency(apps, APPS_IN_FLIGHT, async (listed) => {
      const { org_id, app_id } = listed;
      try {
        results.push(await this.refreshApp(org_id, app_id, listed));
      } catch (error) {
        failures.push({ org_id, app_id, error: error instanceof Error ? error.message : String(error) });
      }
    });
    return { results, failures };
  }

  /**
   * Every app in the registry; one app's failure does not stop the others (it is reported). First,
   * the purges of deleted apps that their DELETE left unfinished continue (bounded per run): this
   * schedule is what guarantees a deleted app's items all go. Last, the apps with a data retention
   * delete their expired events (functions/retention; its failures are reported in its pass).
   */
  async refreshAll(): Promise<{
    results: RefreshResult[];
    failures: { org_id: string; app_id: string; error: string }[];
    purges: PurgeResult[];
    purgeError?: string;
    retention?: RetentionPass;
    retentionError?: string;
  }> {
    let purges: PurgeResult[] = [];
    let purgeError: string | undefined;
    try {
      purges = await this.deps.purger.resumePending();
    } catch (error) {
      purgeError = error instanceof Error ? error.message : String(error);
    }
    const { results, failures } = await this.refreshGovernedApps();
    // Like the purges, retention that cannot even list its apps is reported, not thrown over the refresh done.
    let retention: RetentionPass | undefined;
    let retentionError: string | undefined;
    try {
      retention = await this.deps.retention?.applyAll();
    } catch (error) {
      retentionError = error instanceof Error ? error.message : String(error);
    }
    return {
      results,
      failures,
      purges,
      ...(purgeError === undefined ? {} : { purgeError }),
      ...(retention ? { retention } : {}),
      ...(retentionError === undefined ? {} : { retentionError }),
    };
  }

  private async compute(orgId: string, appId: string, listed?: GovernedApp): Promise<RefreshResult> {
    const app = await this.deps.apps.getApp(orgId, appId);
    if (!app) {
      await this.deps.governedApps.forget(orgId, appId);
      return { org_id: orgId, app_id: appId, changed: false, problems: [] };
    }
    // Known before the rules are read (listed by the schedule, else read now): a rule created after
    // that re-registers the app, and the forget below then leaves it.
    const registered = listed ?? (await this.deps.governedApps.entry(orgId, appId));
    const rules = await this.deps.rules.enabledRules(orgId, appId);
    const cohorts = await this.deps.rules.cohorts(
      orgId,
      appId,
      rules.flatMap((rule) => rule.cohorts.map((cohort) => cohort.id)),
    );
    const sampled = await this.deps.rules.sampledCohorts(orgId, appId);
    // Plan selections and billing-period cohorts all read the app's subscriptions: once per refresh.
    const billing = readOncePerRun(this.deps.billing);
    const search = {
      index: this.deps.index,
      scope: { org_id: orgId, app_id: appId },
      timeZone: app.time_zone,
      weekStartsOn: app.week_starts_on,
      now: this.now(),
      subscriptions: billing,
    };
    const planned = await selectByPlans({ ...search, facts: billing }, rules);
    const membership = await computeMembership({ ...search, rules, cohorts, selections: planned.selections });
    const sampling = await computeSampleRates({ ...search, cohorts: sampled });
    const problems = [...planned.problems, ...membership.problems, ...sampling.problems];
    const { snapshot, changed } = await this.deps.configs.write(orgId, appId, { ...membership.assignments, ...sampling.rates });
    if ((changed || app.rules_config_hash !== snapshot.tag) && !(await this.deps.apps.setRulesConfigHash(orgId, appId, snapshot.tag))) {
      // The app was deleted while this ran, and its purge may be over: remove the snapshot just written.
      await this.deps.purger.purge(orgId, appId, INLINE_PURGE_ITEMS);
      return { org_id: orgId, app_id: appId, changed: false, problems };
    }
    // An app stays registered while it has rules or sampled cohorts; without them its (empty) snapshot needs no refresh.
    if (rules.length > 0 || sampled.size > 0) await this.deps.governedApps.remember(orgId, appId);
    else if (registered) await this.deps.governedApps.forgetListed(registered);
    return { org_id: orgId, app_id: appId, hash: snapshot.hash, changed, problems };
  }
}

/**
 * The management API's onGovernanceChange: refresh the app now. A failed refresh is logged, not
 * thrown: the change itself is stored, and the scheduled refresh retries the membership.
 */
export function governanceChangeHook(
  refresher: GovernanceRefresher,
  log: (line: string) => void = console.error,
): (orgId: string, appId: string) => Promise<void> {
  return async (orgId, appId) => {
    try {
      const result = await refresher.refreshApp(orgId, appId);
      if (result.problems.length > 0) log(JSON.stringify({ message: 'governance membership problems', ...result }));
    } catch (error) {
      log(
        JSON.stringify({ message: 'governance refresh failed', org_id: orgId, app_id: appId, error: error instanceof Error ? error.message : String(error) }),
      );
    }
  };
}
