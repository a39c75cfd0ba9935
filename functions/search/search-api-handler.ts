import { routesOf } from '../definitions/routes';
import { managementAuthenticator } from '../auth/management-auth';
import type { SigningKeyProvider } from '../auth/signing-key';
import type { ManagementTokenClaims } from '../../schemas/management-token';
import { NotFoundError, ValidationError } from '../shared/errors';
import { createHttpHandler, type HttpHandler, type Operation } from '../shared/http/handler';
import type { IndexKind, SearchIndex } from './port';

export interface SearchApiDeps {
  readonly index: SearchIndex;
  readonly signingKey: SigningKeyProvider;
  /** Creates index structures on first use. */
  readonly ready: () => Promise<void>;
}

/** The management search Lambda: reads of the search index, confined to the token's org and app. */
export function createSearchApiHandler(deps: SearchApiDeps): HttpHandler {
  const getById = (kind: IndexKind, what: string): Operation<ManagementTokenClaims> => async (request, claims) => {
    await deps.ready();
    const id = request.pathParams['id']!;
    const time = kind === 'events' ? parseEventTime(request.query['event_time']) : undefined;
    const found = await deps.index.get({ org_id: claims.org_id, app_id: claims.app_id }, kind, id, { time });
    if (!found) throw new NotFoundError(`No ${what} with id ${id}`);
    return { status: 200, body: found };
  };

  return createHttpHandler<ManagementTokenClaims>({
    routes: routesOf({ lambda: 'search' }),
    authenticate: managementAuthenticator(deps.signingKey),
    operations: {
      getEvent: getById('events', 'event'),
      getUser: getById('users', 'user'),
      getCompany: getById('companies', 'company'),
    },
  });
}

function parseEventTime(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new ValidationError('event_time must be an ISO 8601 date-time', [{ field: 'event_time', reason: `not a date-time: ${value}` }]);
  return time;
}
