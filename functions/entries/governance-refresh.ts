/** Lambda entry: the scheduled governance refresh (EventBridge, every minute) over all apps with rules, after continuing unfinished purges of deleted apps, then per-app data retention. */
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { ServiceStores } from '../composition-root/service-stores';
import { governanceRefresher } from '../composition-root/management-services';
import { GovernanceRefreshEnv, parseEnv } from '../definitions/environment';
import { searchIndexFromEnv } from '../search/search-backend';

const env = parseEnv(GovernanceRefreshEnv);
// The refresher writes the snapshots it compares against: it reads them fresh (no cache).
const refresher = governanceRefresher(new ServiceStores(lambdaStoresInput(env, { ruleConfigCacheTtlMs: 0 })), searchIndexFromEnv(env));

export async function handler(): Promise<{ apps: number; changed: number; failed: number; purged: number }> {
  const { results, failures, purges, purgeError, retention, retentionError } = await refresher.refreshAll();
  if (retentionError) console.error(JSON.stringify({ message: 'data retention could not run; the next run retries', error: retentionError }));
  for (const outcome of retention?.outcomes ?? [])
    if (outcome.deleted > 0 || outcome.task) console.log(JSON.stringify({ message: 'data retention applied', ...outcome }));
  for (const failure of retention?.failures ?? []) console.error(JSON.stringify({ message: 'data retention failed; the next run retries', ...failure }));
  if (retention?.compacted?.length) console.log(JSON.stringify({ message: 'compacting settled months', indices: retention.compacted }));
  if (retention?.compactionError) console.error(JSON.stringify({ message: 'compaction failed; the next hour retries', error: retention.compactionError }));
  for (const purge of purges) console.log(JSON.stringify({ message: purge.done ? 'deleted app purged' : 'deleted app purge continues next run', ...purge }));
  if (purgeError) console.error(JSON.stringify({ message: 'purging deleted apps failed', error: purgeError }));
  for (const result of results) {
    if (result.problems.length > 0) console.warn(JSON.stringify({ message: 'governance membership problems', ...result }));
  }
  // A failed app is retried by the next scheduled run; failing the invocation would only re-run the others.
  for (const failure of failures) console.error(JSON.stringify({ message: 'governance refresh failed', ...failure }));
  return {
    apps: results.length + failures.length,
    changed: results.filter((r) => r.changed).length,
    failed: failures.length,
    purged: purges.reduce((n, p) => n + p.deleted, 0),
  };
}
