import type { ApiName } from '../definitions/routes';
import { routes } from '../definitions/routes';
import { routeSchemas } from './route-schemas';
import { buildOpenApiDocument, undocumentedOperations } from './build-document';

/** Where each API's generated document is committed (relative to the repository root). */
export const OPENAPI_FILES: Readonly<Record<ApiName, string>> = {
  collector: 'openapi/collector.json',
  management: 'openapi/management.json',
};

/** Each API's document as the file's text: what `npm run openapi` writes and the CI check compares. */
export function renderOpenApiDocuments(): Record<ApiName, string> {
  const render = (api: ApiName) => `${JSON.stringify(buildOpenApiDocument({ api, routes, schemas: routeSchemas }), null, 2)}\n`;
  return { collector: render('collector'), management: render('management') };
}

/** `lambda.operation` of every route without a registry entry (empty when the documents are complete). */
export function undocumentedRouteOperations(): string[] {
  return undocumentedOperations(routes, routeSchemas);
}
