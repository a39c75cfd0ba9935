import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { type AppStore, newId } from '../../functions/organisations/app-store';
import { verifyManagementToken } from '../../functions/management-tokens/management-token';
import type { OrgUserStore } from '../../functions/organisations/org-user-store';
import { issueManagementToken } from '../../functions/management-tokens/token-issuer';
import type { TokenStore } from '../../functions/management-tokens/token-store';
import { BOOTSTRAP_SUBJECT } from '../../schemas/org';
import { managementScopes } from '../../schemas/scopes';

/** What `npm start` prints and writes to `${DATA_DIR}/local.json`. */
export const LocalCredentials = z.object({
  collector_url: z.string(),
  management_url: z.string(),
  org_id: z.string(),
  app_id: z.string(),
  collector_application_id: z.string(),
  management_token: z.string(),
  /** The org's admin user, for the OAuth password flow (absent in data directories from before it existed). */
  admin_username: z.string().optional(),
  admin_password: z.string().optional(),
});
export type LocalCredentials = z.infer<typeof LocalCredentials>;

export const LOCAL_ADMIN_USERNAME = 'admin';

/** The local token signing key: created once, kept in the data directory. */
export async function loadOrCreateSigningKey(dataDir: string): Promise<Buffer> {
  const file = join(dataDir, 'signing-key');
  try {
    return Buffer.from((await readFile(file, 'utf8')).trim(), 'utf8');
  } catch {
    const key = randomBytes(48).toString('base64url');
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, key, { mode: 0o600 });
    return Buffer.from(key, 'utf8');
  }
}

export interface LocalBootstrap {
  credentials: LocalCredentials;
  /** True when this start created the admin password (npm start prints it then, and only then). */
  adminPasswordCreated: boolean;
}

/**
 * First start: a default organisation and app, an `admin` user with a random password, and a
 * recorded management token with every scope. Later starts reuse them (the app is looked up, so a
 * wiped table is bootstrapped again; a revoked or unreadable bootstrap token is replaced).
 */
export async function bootstrapLocal(options: {
  dataDir: string;
  apps: AppStore;
  tokens: TokenStore;
  users: OrgUserStore;
  signingKey: Buffer;
  collectorUrl: string;
  managementUrl: string;
}): Promise<LocalBootstrap> {
  const file = join(options.dataDir, 'local.json');
  const previous = await readFile(file, 'utf8').then(
    (text) => LocalCredentials.safeParse(JSON.parse(text)),
    () => undefined,
  );
  let credentials: Omit<LocalCredentials, 'collector_url' | 'management_url'>;
  let adminPasswordCreated = false;
  if (previous?.success && (await options.apps.getApp(previous.data.org_id, previous.data.app_id))) {
    credentials = { ...previous.data, management_token: await usableBootstrapToken(options, previous.data) };
  } else {
    const app = await options.apps.createOrgWithApp({ orgId: `org_${newId()}`, orgName: 'Local organisation', appId: `app_${newId()}`, appName: 'Local app' });
    credentials = {
      org_id: app.org_id,
      app_id: app.app_id,
      collector_application_id: app.collector_application_id,
      management_token: await newBootstrapToken(options, app.org_id, app.app_id),
    };
  }
  if (!credentials.admin_password || !(await options.users.find(credentials.org_id, credentials.admin_username ?? LOCAL_ADMIN_USERNAME))) {
    const password = randomBytes(18).toString('base64url');
    await options.users.create(credentials.org_id, { username: LOCAL_ADMIN_USERNAME, password, scopes: ['admin'] }, { replace: true });
    credentials = { ...credentials, admin_username: LOCAL_ADMIN_USERNAME, admin_password: password };
    adminPasswordCreated = true;
  }
  const full: LocalCredentials = { ...credentials, collector_url: options.collectorUrl, management_url: options.managementUrl };
  await writeFile(file, `${JSON.stringify(full, null, 2)}\n`, { mode: 0o600 });
  return { credentials: full, adminPasswordCreated };
}

function newBootstrapToken(options: { tokens: TokenStore; signingKey: Buffer }, orgId: string, appId: string): Promise<string> {
  // No expiry: it is the local operator's key, kept in local.json; revoke it to get a new one next start.
  return issueManagementToken(options.tokens, options.signingKey, { sub: BOOTSTRAP_SUBJECT, org_id: orgId, app_id: appId, scopes: managementScopes }).then(
    (t) => t.token,
  );
}

/** The saved token if it still works; its record is restored if missing (data from before records). */
async function usableBootstrapToken(options: { tokens: TokenStore; signingKey: Buffer }, saved: LocalCredentials): Promise<string> {
  let claims: ReturnType<typeof verifyManagementToken>;
  try {
    claims = verifyManagementToken(saved.management_token, options.signingKey);
  } catch {
    return newBootstrapToken(options, saved.org_id, saved.app_id);
  }
  const record = await options.tokens.get(claims.jti);
  if (record?.revoked_at) return newBootstrapToken(options, saved.org_id, saved.app_id);
  if (!record) {
    await options.tokens.put({
      jti: claims.jti,
      org_id: claims.org_id,
      app_id: claims.app_id,
      sub: claims.sub,
      scopes: claims.scopes,
      issued_at: claims.iat,
      expires_at: claims.exp,
    });
  }
  return saved.management_token;
}
