import collectorDocument from '../../openapi/collector.json';
import type { Operation } from '../shared/http/handler';
import { openApiDocumentOperations } from './serve-document';

/** The collector Lambda's `GET /openapi.json`: its own document only (the bundle stays small). */
export function collectorOpenApiOperations(): Record<string, Operation<unknown>> {
  return openApiDocumentOperations(collectorDocument);
}
