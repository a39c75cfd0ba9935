import { createHash } from 'node:crypto';
import type { App } from '../../../schemas/app';
import { EMPTY_SNAPSHOT, type RuleConfigSnapshot } from '../../governance/rule-config-store';

/**
 * The configuration SDKs fetch from GET /v1/config: sampling rates and rule assignments.
 * Its ETag is returned on every collector answer, so SDKs refetch only when it changes.
 */
export interface SdkConfig {
  sample_rate: number;
  user_sample_rate: Record<string, number>;
  company_sample_rate: Record<string, number>;
  /** RuleAssignment[] per user_id / company_id (schemas/governance.ts); `unknown[]` keeps the OpenAPI drift check's shape. */
  user_rules: Record<string, unknown[]>;
  company_rules: Record<string, unknown[]>;
  regex_config: App['settings']['regex_config'];
  org_id: string;
  app_id: string;
}

/**
 * The app's settings plus the cohort membership the governance refresher stored. Per-id sample
 * rates: the sampled cohorts' members, overridden by ids the app's settings name themselves (an
 * explicit per-id setting is more specific than a segment).
 */
export function sdkConfigFor(app: App, rules: RuleConfigSnapshot = EMPTY_SNAPSHOT): SdkConfig {
  return {
    org_id: app.org_id,
    app_id: app.app_id,
    sample_rate: app.settings.sample_rate,
    user_sample_rate: { ...rules.assignments.user_sample_rate, ...app.settings.user_sample_rate },
    company_sample_rate: { ...rules.assignments.company_sample_rate, ...app.settings.company_sample_rate },
    user_rules: rules.assignments.user_rules,
    company_rules: rules.assignments.company_rules,
    regex_config: app.settings.regex_config,
  };
}

/**
 * A strong ETag of what the config makes SDKs do: equal configs give equal tags across instances.
 * The membership (rules and cohort sample rates) enters through its tag (RuleConfigSnapshot.tag:
 * without the values that move while a company stays blocked), so answers that have only the app
 * (every ingest answer, through `app.rules_config_hash`) carry the same tag as GET /v1/config, and
 * an SDK fetches the config again only when whom a rule hits changes.
 */
export function configETag(app: App, rulesTag: string = app.rules_config_hash ?? EMPTY_SNAPSHOT.tag): string {
  const { user_rules: _u, company_rules: _c, ...settings } = sdkConfigFor(app);
  return createHash('sha256').update(JSON.stringify(settings)).update(rulesTag).digest('hex').slice(0, 32);
}

export const CONFIG_ETAG_HEADERS = ['x-moesif-config-etag', 'x-config-etag'] as const;

export function etagHeaders(tag: string): Record<string, string> {
  return Object.fromEntries(CONFIG_ETAG_HEADERS.map((h) => [h, tag]));
}

const headersByVersion = new Map<string, Record<string, string>>();

/** The ETag headers for an app, computed once per app version (they ride on every collector answer). */
export function configETagHeaders(app: App): Record<string, string> {
  const version = `${app.org_id}/${app.app_id}/${app.modified_at}/${app.rules_config_hash ?? ''}`;
  let headers = headersByVersion.get(version);
  if (!headers) {
    headers = etagHeaders(configETag(app));
    if (headersByVersion.size > 1000) headersByVersion.clear();
    headersByVersion.set(version, headers);
  }
  return headers;
}
