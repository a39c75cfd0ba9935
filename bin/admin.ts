/**
 * `npm run admin -- <command> --table <resources table> [--region r] [--endpoint url]`:
 * operator commands against the resources table (on AWS, or DynamoDB Local with --endpoint).
 *
 *   bootstrap       [--org-name n] [--app-name n] [--username admin]   new org + app + admin user
 *   set-org-status  <org_id> active|inactive|cancelled
 *   create-user     <org_id> <username> --scopes admin|a,b [--password p]
 *   delete-user     <org_id> <username>                                 and revoke every token issued to them
 *
 * Passwords are printed once (generated unless given) and stored only as scrypt hashes.
 * --json prints one JSON object instead of text.
 */
import { parseArgs } from 'node:util';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import * as z from 'zod';
import { AppStore } from '../functions/auth/app-store';
import { bootstrapOrganisation, generatePassword } from '../functions/auth/org-bootstrap';
import { setOrgStatus } from '../functions/auth/org-status';
import { removeOrgUser } from '../functions/auth/org-user-removal';
import { OrgUserStore } from '../functions/auth/org-user-store';
import { splitScopeList } from '../functions/auth/scope-list';
import { TokenStore } from '../functions/auth/token-store';
import { createDocumentClient, createDynamoDbClient } from '../functions/shared/aws/clients';
import { isServiceError } from '../functions/shared/errors';
import { CreateOrgUser, SubscriptionStatus } from '../schemas/org';

const USAGE = `usage: npm run admin -- <bootstrap | set-org-status <org> <status> | create-user <org> <username> --scopes s1,s2 | delete-user <org> <username>> --table <resources table> [--region r] [--endpoint url] [--json]`;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      table: { type: 'string' },
      region: { type: 'string' },
      endpoint: { type: 'string' },
      'org-name': { type: 'string', default: 'My organisation' },
      'app-name': { type: 'string', default: 'Production' },
      username: { type: 'string', default: 'admin' },
      scopes: { type: 'string' },
      password: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [command, ...args] = positionals;
  if (!command || !values.table) throw new UsageError(USAGE);
  const dynamodb = createDynamoDbClient({
    region: values.region,
    ...(values.endpoint ? { endpoints: { dynamodb: values.endpoint }, httpHandler: (settings) => new NodeHttpHandler(settings) } : {}),
  });
  const documents = createDocumentClient(dynamodb);
  const apps = new AppStore(documents, values.table);
  const users = new OrgUserStore(documents, values.table);
  const print = (result: Record<string, string>) =>
    console.log(values.json ? JSON.stringify(result) : Object.entries(result).map(([k, v]) => `${k.padEnd(26)}${v}`).join('\n'));

  try {
    switch (command) {
      case 'bootstrap': {
        const org = await bootstrapOrganisation({ apps, users }, { orgName: values['org-name'], appName: values['app-name'], username: values.username });
        print({ ...org, note: 'the password is shown only now; log in at POST {management_url}/v1/<org_id>/oauth/access_tokens' });
        return;
      }
      case 'set-org-status': {
        const [orgId, status] = args;
        if (!orgId || !status) throw new UsageError('usage: set-org-status <org_id> active|inactive|cancelled');
        const parsed = SubscriptionStatus.safeParse(status);
        if (!parsed.success) throw new UsageError(`status must be one of ${SubscriptionStatus.options.join(', ')}`);
        await setOrgStatus(documents, values.table, orgId, parsed.data);
        print({ org_id: orgId, subscription_status: parsed.data, note: 'running instances notice within 30 s' });
        return;
      }
      case 'create-user': {
        const [orgId, username] = args;
        if (!orgId || !username) throw new UsageError('usage: create-user <org_id> <username> --scopes admin|s1,s2 [--password p]');
        const password = values.password ?? generatePassword();
        const input = CreateOrgUser.safeParse({ username, password, scopes: splitScopeList(values.scopes) ?? [] });
        if (!input.success) throw new UsageError(input.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
        if (!(await apps.listApps(orgId)).length) throw new UsageError(`organisation ${orgId} has no app (bootstrap it first)`);
        const user = await users.create(orgId, input.data);
        print({ org_id: orgId, username: user.username, scopes: user.scopes.join(' '), ...(values.password ? {} : { password }) });
        return;
      }
      case 'delete-user': {
        const [orgId, username] = args;
        if (!orgId || !username) throw new UsageError('usage: delete-user <org_id> <username>');
        const result = await removeOrgUser({ users, tokens: new TokenStore(documents, values.table) }, orgId, username, new Date());
        if (!result.removed) throw new UsageError(`organisation ${orgId} has no user ${username}`);
        print({ org_id: orgId, username, revoked_tokens: String(result.revokedTokens) });
        return;
      }
      default:
        throw new UsageError(USAGE);
    }
  } finally {
    dynamodb.destroy();
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof UsageError || isServiceError(error) || error instanceof z.ZodError ? `admin: ${(error as Error).message}` : error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
