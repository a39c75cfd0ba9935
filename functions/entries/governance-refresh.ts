/**
 * Lambda entry: the scheduled governance refresh (EventBridge, every minute) over all apps with
 * rules, after continuing unfinished purges of deleted apps, then per-app data retention; then the
 * governed apps again every GOVERNANCE_REFRESH_SECONDS while the invocation lasts (refresh-ticks.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'aws-lambda';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { ServiceStores } from '../composition-root/service-stores';
import { governanceRefresher } from '../composition-root/management-services';
import { GovernanceRefreshEnv, parseEnv, settingVariables } from '../definitions/environment';
import { refreshWhileTimeLasts } from '../governance/refresh-ticks';
import { searchIndexFromEnv } from '../search/search-backend';

const env = parseEnv(GovernanceRefreshEnv);
// The refresher writes the snapshots it compares against: it reads them fresh (no cache).
const refresher = governanceRefresher(new ServiceStores(lambdaStoresInput(env, { ruleConfigCacheTtlMs: 0 })), searchIndexFromEnv(env));

type Outcome = Awaited<ReturnType<typeof refresher.refreshGovernedApps>>;

function logApps({ results, failures }: Outcome): void {
  for (const result of results) {
    if (result.problems.length > 0) console.warn(JSON.stringify({ message: 'governance membership problems', ...result }));
  }
  // A failed app is retried by the next refresh; failing the invocation would only re-run the others.
  for (const failure of failures) console.error(JSON.stringify({ message: 'governance refresh failed', ...failure }));
}

export async function handler(
  _event?: unknown,
  context?: Pick<Context, 'getRemainingTimeInMillis'>,
): Promise<{ apps: number; changed: number; failed: number; purged: number; repeats: number }> {
  const started = Date.now();
  const { results, failures, purges, purgeError, retention, retentionError } = await refresher.refreshAll();
  if (retentionError) console.error(JSON.stringify({ message: 'data retention could not run; the next run retries', error: retentionError }));
  for (const outcome of retention?.outcomes ?? [])
    if (outcome.deleted > 0 || outcome.task) console.log(JSON.stringify({ message: 'data retention applied', ...outcome }));
  for (const failure of retention?.failures ?? []) console.error(JSON.stringify({ message: 'data retention failed; the next run retries', ...failure }));
  if (retention?.compacted?.length) console.log(JSON.stringify({ message: 'compacting settled months', indices: retention.compacted }));
  if (retention?.compactionError) console.error(JSON.stringify({ message: 'compaction failed; the next hour retries', error: retention.compactionError }));
  for (const purge of purges) console.log(JSON.stringify({ message: purge.done ? 'deleted app purged' : 'deleted app purge continues next run', ...purge }));
  if (purgeError) console.error(JSON.stringify({ message: 'purging deleted apps failed', error: purgeError }));
  logApps({ results, failures });
  // With no governed app there is nothing to repeat: the invocation ends at once.
  const repeats =
    context && results.length + failures.length > 0
      ? await refreshWhileTimeLasts(
          async () => logApps(await refresher.refreshGovernedApps()),
          { everyMs: env[settingVariables.governanceRefreshSeconds] * 1000, firstMs: Date.now() - started },
          { remainingMs: () => context.getRemainingTimeInMillis(), sleep: (ms) => sleep(ms) },
        )
      : 0;
  return {
    apps: results.length + failures.length,
    changed: results.filter((r) => r.changed).length,
    failed: failures.length,
    purged: purges.reduce((n, p) => n + p.deleted, 0),
    repeats,
  };
}
