import managementDocument from '../../openapi/management.json';
import type { Operation } from '../shared/http/handler';
import { openApiDocumentOperations } from './serve-document';

/**
 * The management Lambda's `GET /openapi.json`. The collector's lives in its own module
 * (collector-openapi-operations.ts) so neither bundle carries the other API's document.
 */
export function openApiOperations(_api: 'management'): Record<string, Operation<unknown>> {
  return openApiDocumentOperations(managementDocument);
}
