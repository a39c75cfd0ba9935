import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { AppStore, newId } from '../../functions/auth/app-store';
import { signManagementToken } from '../../functions/auth/management-token';
import { managementScopes } from '../../schemas/scopes';

/** What `npm start` prints and writes to `${DATA_DIR}/local.json`. */
export const LocalCredentials = z.object({
  collector_url: z.string(),
  management_url: z.string(),
  org_id: z.string(),
  app_id: z.string(),
  collector_application_id: z.string(),
  management_token: z.string(),
});
export type LocalCredentials = z.infer<typeof LocalCredentials>;

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

/**
 * First start: a default organisation and app, and a management token with every scope.
 * Later starts reuse them (the app is looked up, so a wiped table is bootstrapped again).
 */
export async function bootstrapLocal(options: { dataDir: string; apps: AppStore; signingKey: Buffer; collectorUrl: string; managementUrl: string }): Promise<LocalCredentials> {
  const file = join(options.dataDir, 'local.json');
  const previous = await readFile(file, 'utf8').then((text) => LocalCredentials.safeParse(JSON.parse(text)), () => undefined);
  let credentials: Omit<LocalCredentials, 'collector_url' | 'management_url'>;
  if (previous?.success && (await options.apps.getApp(previous.data.org_id, previous.data.app_id))) {
    credentials = previous.data;
  } else {
    const app = await options.apps.createOrgWithApp({ orgId: `org_${newId()}`, orgName: 'Local organisation', appId: `app_${newId()}`, appName: 'Local app' });
    credentials = {
      org_id: app.org_id,
      app_id: app.app_id,
      collector_application_id: app.collector_application_id,
      management_token: signManagementToken({ sub: 'bootstrap', org_id: app.org_id, app_id: app.app_id, scopes: [...managementScopes] }, options.signingKey),
    };
  }
  const full: LocalCredentials = { collector_url: options.collectorUrl, management_url: options.managementUrl, ...credentials };
  await writeFile(file, JSON.stringify(full, null, 2) + '\n', { mode: 0o600 });
  return full;
}
