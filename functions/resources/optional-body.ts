import type { HttpRequest } from '../shared/http/types';
import { readObjectBody } from './crud-operations';

/** True when the request carries a body (some of these routes take their input from the query string instead). */
export function hasBody(request: HttpRequest): boolean {
  return request.bodyText !== undefined ? request.bodyText.length > 0 : request.rawBody.length > 0;
}

/** The JSON object body, or `{}` when none was sent. */
export function optionalObjectBody(request: HttpRequest): Record<string, unknown> {
  return hasBody(request) ? readObjectBody(request) : {};
}
