import type { Operation } from '../shared/http/handler';

/**
 * The `openApi` operation of an API: its committed, generated document (openapi/<api>.json, bundled
 * into the Lambda by esbuild). Open to anyone, like the API's shape itself.
 */
export function openApiDocumentOperations(document: Readonly<Record<string, unknown>>): { openApi: Operation<unknown> } {
  return {
    openApi: async () => ({ status: 200, body: document, headers: { 'cache-control': 'public, max-age=300' } }),
  };
}
