import { PasswordGrantFields } from '../../schemas/oauth';
import { isServiceError } from '../shared/errors';
import { decodeBody, readJsonBody } from '../shared/http/body';
import type { HttpRequest } from '../shared/http/types';
import { OAuthError } from './oauth-error';
import { fieldPath } from '../shared/invalid-input';

/** A token request is a few short fields; anything bigger is not one. */
const MAX_TOKEN_REQUEST_BYTES = 64 * 1024;

export interface PasswordGrantRequest {
  username: string;
  password: string;
  scope?: string;
  app_id?: string;
}

/**
 * The token URL's body: `application/x-www-form-urlencoded` (RFC 6749 §4.3.2) or a JSON object
 * with the same fields. Every failure is an OAuthError with the RFC's code.
 */
export function parsePasswordGrantRequest(request: HttpRequest): PasswordGrantRequest {
  const fields = PasswordGrantFields.safeParse(readFields(request));
  if (!fields.success) {
    const issue = fields.error.issues[0]!;
    throw new OAuthError(400, 'invalid_request', `${fieldPath(issue.path, 'body')}: ${issue.message}`);
  }
  const { grant_type, username, password, scope, app_id } = fields.data;
  if (!grant_type) throw new OAuthError(400, 'invalid_request', 'grant_type is required (use grant_type=password)');
  if (grant_type !== 'password') throw new OAuthError(400, 'unsupported_grant_type', `grant_type ${grant_type} is not supported; use password`);
  if (!username) throw new OAuthError(400, 'invalid_request', 'username is required');
  if (!password) throw new OAuthError(400, 'invalid_request', 'password is required');
  return { username, password, scope, app_id };
}

function readFields(request: HttpRequest): unknown {
  const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  try {
    if (contentType === 'application/x-www-form-urlencoded') {
      const params = new URLSearchParams(decodeBody(request.rawBody, request.headers['content-encoding'], MAX_TOKEN_REQUEST_BYTES).toString('utf8'));
      const fields: Record<string, string> = {};
      for (const [name, value] of params) {
        // RFC 6749 §3.2: request parameters must not be repeated.
        if (name in fields) throw new OAuthError(400, 'invalid_request', `${name} is given more than once`);
        fields[name] = value;
      }
      return fields;
    }
    if (contentType === '' || contentType === 'application/json' || contentType.endsWith('+json')) {
      const body = readJsonBody(request, MAX_TOKEN_REQUEST_BYTES);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new OAuthError(400, 'invalid_request', 'The body must be a JSON object');
      return body;
    }
  } catch (error) {
    if (isServiceError(error)) throw new OAuthError(400, 'invalid_request', error.message);
    throw error;
  }
  throw new OAuthError(400, 'invalid_request', `Content-Type ${contentType} is not supported; use application/x-www-form-urlencoded or application/json`);
}
