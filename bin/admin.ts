/**
 * `npm run admin -- <command> --table <resources table> [--region r] [--endpoint url]`:
 * operator commands against the resources table (on AWS, or DynamoDB Local with --endpoint).
 * Without --table it acts on the running local service of DATA_DIR (default .data), found through
 * its runtime.json.
 *
 *   bootstrap       [--org-name n] [--app-name n] [--username admin]   new org + app + admin user
 *   set-org-status  <org_id> active|inactive|cancelled
 *   create-user     <org_id> <username> --scopes admin|a,b [--password p]
 *   delete-user     <org_id> <username>                                 and revoke every token issued to them
 *
 * Passwords are printed once (generated unless given) and stored only as scrypt hashes.
 * --json prints one JSON object instead of text.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import * as z from 'zod';
import { AppStore } from '../functions/organisations/app-store';
import { bootstrapOrganisation, generatePassword } from '../functions/organisations/org-bootstrap';
import { setOrgStatus } from '../functions/organisations/org-status';
import { removeOrgUser } from '../functions/oauth/org-user-removal';
import { OrgUserStore } from '../functions/organisations/org-user-store';
import { splitScopeList } from '../functions/management-tokens/scope-list';
import { TokenStore } from '../functions/management-tokens/token-store';
import { createDocumentClient, createDynamoDbClient } from '../functions/shared/aws/clients';
import { isServiceError } from '../functions/shared/errors';
import { CreateOrgUser, SubscriptionStatus } from '../schemas/org';
import { readRuntimeFile } from './local/runtime-file';

const USAGE = `usage: npm run admin -- <command> [--table <resources table> [--region r] [--endpoint url]] [--json]
  bootstrap       [--org-name n] [--app-name n] [--username admin]   new org + app + admin user
  set-org-status  <org_id> active|inactive|cancelled
  create-user     <org_id> <username> --scopes admin|s1,s2 [--password p]
  delete-user     <org_id> <username>
Without --table: the running local service of DATA_DIR (default .data).`;

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArguments(argv);
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const [command, ...args] = positionals;
  if (!command) throw new UsageError(USAGE);
  const target = await resolveTable(values);
  const dynamodb = createDynamoDbClient({
    region: values.region,
    ...(target.endpoint ? { endpoints: { dynamodb: target.endpoint }, httpHandler: (settings) => new NodeHttpHandler(settings) } : {}),
  });
  const documents = createDocumentClient(dynamodb);
  const table = target.table;
  const apps = new AppStore(documents, table);
  const users = new OrgUserStore(documents, table);
  const print = (result: Record<string, string>) =>
    console.log(
      values.json
        ? JSON.stringify(result)
        : Object.entries(result)
            .map(([k, v]) => `${k.padEnd(26)}${v}`)
            .join('\n'),
    );
  try {
    await runCommand(command, args, values, { documents, table, apps, users, print });
  } finally {
    dynamodb.destroy();
  }
}

function parseArguments(argv: string[]) {
  try {
    return parseArgs({
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
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    // An unknown or malformed option: say which, then how to call.
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
}

type Values = ReturnType<typeof parseArguments>['values'];

/** The resources table to act on: --table (with --endpoint for an emulator), or the running local service's. */
async function resolveTable(values: Values): Promise<{ table: string; endpoint?: string }> {
  if (values.table) return { table: values.table, ...(values.endpoint ? { endpoint: values.endpoint } : {}) };
  const dataDir = resolve(process.env['DATA_DIR'] ?? '.data');
  const runtime = await readRuntimeFile(dataDir);
  if (!runtime) throw new UsageError(`no --table, and no running local service in ${dataDir} (start it with npm start)\n${USAGE}`);
  return { table: runtime.names.tables.resources, endpoint: runtime.endpoints.dynamodb };
}

interface CommandDeps {
  documents: ReturnType<typeof createDocumentClient>;
  table: string;
  apps: AppStore;
  users: OrgUserStore;
  print: (result: Record<string, string>) => void;
}

async function runCommand(command: string, args: string[], values: Values, { documents, table, apps, users, print }: CommandDeps): Promise<void> {
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
      await setOrgStatus(documents, table, orgId, parsed.data);
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
      const result = await removeOrgUser({ users, tokens: new TokenStore(documents, table) }, orgId, username, new Date());
      if (!result.removed) throw new UsageError(`organisation ${orgId} has no user ${username}`);
      print({ org_id: orgId, username, revoked_tokens: String(result.revokedTokens) });
      return;
    }
    default:
      throw new UsageError(USAGE);
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof UsageError || isServiceError(error) || error instanceof z.ZodError ? `admin: ${(error as Error).message}` : error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
