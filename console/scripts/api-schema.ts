import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

/**
 * The console's API client is typed by the management API's OpenAPI document: this turns
 * openapi/management.json into console/src/lib/api-schema.ts (`npm run console:api`). A test runs
 * it with --check, which fails when the committed file is stale.
 */
export const OPENAPI_DOCUMENT = resolve(__dirname, '../../openapi/management.json');
export const API_SCHEMA_FILE = resolve(__dirname, '../src/lib/api-schema.ts');

const HEADER = '// Generated from openapi/management.json by `npm run console:api` (openapi-typescript). Do not edit.\n\n';

export async function apiSchemaSource(): Promise<string> {
  const document = JSON.parse(await readFile(OPENAPI_DOCUMENT, 'utf8')) as Parameters<typeof openapiTS>[0];
  return HEADER + astToString(await openapiTS(document, { alphabetize: true }));
}

/** Writes the file, or with --check only says (exit 1) whether the committed one is stale. */
async function main(check: boolean): Promise<void> {
  const source = await apiSchemaSource();
  if (!check) {
    await writeFile(API_SCHEMA_FILE, source);
    console.log(`wrote ${API_SCHEMA_FILE}`);
    return;
  }
  if ((await readFile(API_SCHEMA_FILE, 'utf8')) !== source) {
    console.error('console/src/lib/api-schema.ts is stale: run npm run console:api');
    process.exitCode = 1;
  }
}

if (require.main === module) void main(process.argv.includes('--check'));
