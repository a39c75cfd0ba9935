/** Writes openapi/collector.json and openapi/management.json from the route table and the zod schemas (`npm run openapi`). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { OPENAPI_FILES, renderOpenApiDocuments, undocumentedRouteOperations } from '../functions/openapi/documents';

const root = resolve(__dirname, '..');
const documents = renderOpenApiDocuments();
for (const api of ['collector', 'management'] as const) {
  const file = resolve(root, OPENAPI_FILES[api]);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, documents[api]);
  console.log(`wrote ${OPENAPI_FILES[api]} (${documents[api].length} bytes)`);
}

const undocumented = undocumentedRouteOperations();
if (undocumented.length > 0) {
  console.warn(`routes without an entry in functions/definitions/route-schemas.ts (documented without their answer): ${undocumented.join(', ')}`);
}
