import { isServiceError, type FieldIssue } from '../errors';
import type { HttpResult } from './types';
import { jsonResult } from './json-result';

/**
 * The one error shape of both APIs:
 *   { "error": { "status": 400, "code": "invalid_request", "message": "...",
 *                "details": [ { "index": 3, "field": "request.time", "reason": "..." } ] } }
 * `details` is always present (empty when there is nothing per field).
 */
export interface ErrorBody {
  error: { status: number; code: string; message: string; details: FieldIssue[] };
}

export function errorBody(status: number, code: string, message: string, details: FieldIssue[] = []): ErrorBody {
  return { error: { status, code, message, details } };
}

/** Maps any thrown value to a response. Unknown errors become a 500 that reveals nothing. */
export function errorResult(error: unknown, log: (entry: Record<string, unknown>) => void = defaultLog): HttpResult {
  if (isServiceError(error)) {
    return jsonResult(error.status, errorBody(error.status, error.code, error.message, error.details), error.headers);
  }
  log({
    level: 'error',
    message: 'unhandled error',
    error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
  });
  return jsonResult(500, errorBody(500, 'internal_error', 'The service failed to handle the request; it has been logged.'));
}

function defaultLog(entry: Record<string, unknown>): void {
  console.error(JSON.stringify(entry));
}
