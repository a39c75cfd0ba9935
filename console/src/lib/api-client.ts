import createClient, { type Client } from 'openapi-fetch';
import { apiErrorOf } from './api-error';
import type { paths } from './api-schema';

/**
 * The one client of the management API, typed by the paths of its OpenAPI document
 * (api-schema.ts is generated from openapi/management.json; a test checks it is current).
 */
export type ManagementClient = Client<paths>;

export function createManagementClient(options: { baseUrl: string; token: () => string | undefined; onUnauthorized: () => void }): ManagementClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl });
  client.use({
    onRequest({ request }) {
      const token = options.token();
      // A public link is its own credential: the viewer's session (if any) is not sent with it.
      if (token && !isPublicLinkRequest(request)) request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
    onResponse({ request, response }) {
      // An expired or revoked token: back to sign-in (a revoked shared link is the page's own error).
      if (response.status === 401 && !isPublicLinkRequest(request)) options.onUnauthorized();
      return response;
    },
  });
  return client;
}

/** Requests whose link is their own credential (shared views, unsubscribe links): no session goes with them. */
const isPublicLinkRequest = (request: Request) => new URL(request.url).pathname.includes('/public/');

/** The data of an answer, or its error thrown as an ApiError (the message and the fields it names). */
export function dataOf<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (!result.response.ok) throw apiErrorOf(result.response.status, result.error);
  return result.data as T;
}
