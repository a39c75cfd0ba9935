/** Lambda entry: the scheduled governance refresh (EventBridge, every minute) over all apps with rules, after continuing unfinished purges of deleted apps. */
import { GovernanceRefreshEnv, parseEnv } from '../definitions/environment';
import { AppStore } from '../organisations/app-store';
import { searchIndexFromEnv } from '../search/search-backend';
import { createDocumentClient, createDynamoDbClient } from '../shared/aws/clients';
import { GovernanceRefresher } from './refresher';
import { RuleConfigStore } from './rule-config-store';
import { GovernanceRuleStore } from './rule-store';

const env = parseEnv(GovernanceRefreshEnv);
const documents = createDocumentClient(createDynamoDbClient({ region: env.AWS_REGION }));
const configs = new RuleConfigStore(documents, env.RESOURCES_TABLE, { cacheTtlMs: 0 });
const refresher = new GovernanceRefresher({
  documents,
  resourcesTable: env.RESOURCES_TABLE,
  apps: new AppStore(documents, env.RESOURCES_TABLE),
  rules: new GovernanceRuleStore(documents, env.RESOURCES_TABLE, configs),
  configs,
  index: searchIndexFromEnv(env),
});

export async function handler(): Promise<{ apps: number; changed: number; failed: number; purged: number }> {
  const { results, failures, purges, purgeError } = await refresher.refreshAll();
  for (const purge of purges) console.log(JSON.stringify({ message: purge.done ? 'deleted app purged' : 'deleted app purge continues next run', ...purge }));
  if (purgeError) console.error(JSON.stringify({ message: 'purging deleted apps failed', error: purgeError }));
  for (const result of results) {
    if (result.problems.length > 0) console.warn(JSON.stringify({ message: 'governance membership problems', ...result }));
  }
  // A failed app is retried by the next scheduled run; failing the invocation would only re-run the others.
  for (const failure of failures) console.error(JSON.stringify({ message: 'governance refresh failed', ...failure }));
  return { apps: results.length + failures.length, changed: results.filter((r) => r.changed).length, failed: failures.length, purged: purges.reduce((n, p) => n + p.deleted, 0) };
}
