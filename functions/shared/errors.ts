/**
 * Named errors of the service. Domain code throws these; the HTTP layer maps them to a status and
 * the one JSON error shape (see http/error-response.ts). Anything else is an unexpected 500.
 */

/** One problem with one field: `index` is the item's position in a batch body, when it has one. */
export interface FieldIssue {
  field: string;
  reason: string;
  index?: number;
}

export abstract class ServiceError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  readonly details: FieldIssue[];
  readonly headers: Record<string, string>;

  constructor(message: string, details: FieldIssue[] = [], headers: Record<string, string> = {}) {
    super(message);
    this.name = new.target.name;
    this.details = details;
    this.headers = headers;
  }
}

export class ValidationError extends ServiceError {
  readonly status = 400;
  readonly code = 'invalid_request';
}

export class UnauthorizedError extends ServiceError {
  readonly status = 401;
  readonly code = 'unauthorized';
}

export class PaymentRequiredError extends ServiceError {
  readonly status = 402;
  readonly code = 'payment_required';
}

export class NotFoundError extends ServiceError {
  readonly status = 404;
  readonly code = 'not_found';
}

export class MethodNotAllowedError extends ServiceError {
  readonly status = 405;
  readonly code = 'method_not_allowed';
  constructor(method: string, path: string, allowed: string[]) {
    super(`${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, [], { allow: allowed.join(', ') });
  }
}

export class NotAcceptableError extends ServiceError {
  readonly status = 406;
  readonly code = 'not_acceptable';
}

/** The request conflicts with what is stored: a name already taken, a limit reached, a field that cannot change. */
export class ConflictError extends ServiceError {
  readonly status = 409;
  readonly code = 'conflict';
}

export class GoneError extends ServiceError {
  readonly status = 410;
  readonly code = 'gone';
}

export class PayloadTooLargeError extends ServiceError {
  readonly status = 413;
  readonly code = 'payload_too_large';
}

export class UnsupportedMediaTypeError extends ServiceError {
  readonly status = 415;
  readonly code = 'unsupported_media_type';
}

export class TooManyRequestsError extends ServiceError {
  readonly status = 429;
  readonly code = 'too_many_requests';
}

/** A dependency (the stream, a table) did not take the write; the client should retry. */
export class ServiceUnavailableError extends ServiceError {
  readonly status = 503;
  readonly code = 'service_unavailable';
}

/** A query ran past its time budget and was stopped; a narrower query (or time range) may fit. */
export class QueryTimeoutError extends ServiceError {
  readonly status = 504;
  readonly code = 'query_timeout';
}

/** The caller hung up: its query was stopped. Nobody reads this answer; it only ends the work. */
export class ClientClosedError extends ServiceError {
  readonly status = 499;
  readonly code = 'client_closed_request';
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof ServiceError;
}
