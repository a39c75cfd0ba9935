import { randomBytes } from 'node:crypto';
import type { UserScope } from '../../schemas/org';
import { newId, type AppStore } from './app-store';
import type { OrgUserStore } from './org-user-store';

export interface BootstrappedOrg {
  org_id: string;
  app_id: string;
  collector_application_id: string;
  username: string;
  /** Generated here and shown once; only its scrypt hash is stored. */
  password: string;
}

/** A random password well above the 12-character minimum (144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/**
 * A new organisation with its first app and an admin user: what an operator needs to log in with
 * the password flow and point SDKs at the collector.
 */
export async function bootstrapOrganisation(
  stores: { apps: AppStore; users: OrgUserStore },
  input: { orgName: string; appName: string; username: string; orgId?: string; appId?: string; scopes?: UserScope[] },
): Promise<BootstrappedOrg> {
  const app = await stores.apps.createOrgWithApp({
    orgId: input.orgId ?? `org_${newId()}`,
    orgName: input.orgName,
    appId: input.appId ?? `app_${newId()}`,
    appName: input.appName,
  });
  const password = generatePassword();
  await stores.users.create(app.org_id, { username: input.username, password, scopes: input.scopes ?? ['admin'] });
  return { org_id: app.org_id, app_id: app.app_id, collector_application_id: app.collector_application_id, username: input.username, password };
}
