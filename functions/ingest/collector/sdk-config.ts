import { createHash } from 'node:crypto';
import type { App } from '../../../schemas/app';

/**
 * The configuration SDKs fetch from GET /v1/config: sampling rates and rule assignments.
 * Its ETag is returned on every collector answer, so SDKs refetch only when it changes.
 */
export interface SdkConfig {
  sample_rate: number;
  user_sample_rate: Record<string, number>;
  company_sample_rate: Record<string, number>;
  user_rules: Record<string, unknown[]>;
  company_rules: Record<string, unknown[]>;
  regex_config: App['settings']['regex_config'];
  org_id: string;
  app_id: string;
}

export function sdkConfigFor(app: App): SdkConfig {
  return {
    org_id: app.org_id,
    app_id: app.app_id,
    sample_rate: app.settings.sample_rate,
    user_sample_rate: app.settings.user_sample_rate,
    company_sample_rate: app.settings.company_sample_rate,
    // Cohort membership of users and companies per rule arrives with governance rules.
    user_rules: {},
    company_rules: {},
    regex_config: app.settings.regex_config,
  };
}

/** A strong ETag of the config's content: equal configs give equal tags across instances. */
export function configETag(config: SdkConfig): string {
  return createHash('sha256').update(JSON.stringify(config)).digest('hex').slice(0, 32);
}

export const CONFIG_ETAG_HEADERS = ['x-moesif-config-etag', 'x-config-etag'] as const;

const headersByVersion = new Map<string, Record<string, string>>();

/** The ETag headers for an app, computed once per app version (they ride on every collector answer). */
export function configETagHeaders(app: App): Record<string, string> {
  const version = `${app.org_id}/${app.app_id}/${app.modified_at}`;
  let headers = headersByVersion.get(version);
  if (!headers) {
    const tag = configETag(sdkConfigFor(app));
    headers = Object.fromEntries(CONFIG_ETAG_HEADERS.map((h) => [h, tag]));
    if (headersByVersion.size > 1000) headersByVersion.clear();
    headersByVersion.set(version, headers);
  }
  return headers;
}
