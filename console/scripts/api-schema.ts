import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';

/**
 * The console's API client is typed by the management API's OpenAPI document: this turns
 * openapi/management.json into console/src/lib/api-schema.ts (`npm run console:api`). The file is
 * generated, not committed (twelve thousand lines of types): `npm run build`, and so `npm test`,
 * writes it before type-checking, so the client is always checked against the document as it is.
 */
export const OPENAPI_DOCUMENT = resolve(__dirname, '../../openapi/management.json');
export const API_SCHEMA_FILE = resolve(__dirname, '../src/lib/api-schema.ts');

const HEADER = '// Generated from openapi/management.json by `npm run console:api` (openapi-typescript). Do not edit.\n\n';

export async function apiSchemaSource(): Promise<string> {
  const document = JSON.parse(await readFile(OPENAPI_DOCUMENT, 'utf8')) as Parameters<typeof openapiTS>[0];
  return HEADER + astToString(await openapiTS(document, { alphabetize: true, defaultNonNullable: false }));
}

if (require.main === module) {
  void apiSchemaSource().then((source) => writeFile(API_SCHEMA_FILE, source));
}
