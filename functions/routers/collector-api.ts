import { routesOf, type RouteDefinition } from '../definitions/routes';
import type { AppDirectory } from '../organisations/app-store';
import { UnauthorizedError } from '../shared/errors';
import { createHttpHandler, type HttpHandler } from '../shared/http/handler';
import type { HttpRequest } from '../shared/http/types';
import { collectorOperations, type CollectorAuth, type CollectorDeps } from './collector-operations';
import { configETagHeaders } from '../ingest/collector/sdk-config';

/** The SDKs' header, and the header name of the original service that existing SDKs send. */
export const APPLICATION_ID_HEADERS = ['x-service-application-id', 'x-moesif-application-id'] as const;

export interface CollectorHandlerDeps extends CollectorDeps {
  readonly apps: AppDirectory;
}

/** The collector Lambda: every collector route of the route table, authenticated by application id. */
export function createCollectorHandler(deps: CollectorHandlerDeps): HttpHandler {
  return createHttpHandler<CollectorAuth>({
    routes: routesOf({ api: 'collector' }),
    operations: collectorOperations(deps),
    authenticate: (route, request) => authenticateApp(deps.apps, route, request),
    extraHeaders: (app) => (app ? configETagHeaders(app) : {}),
  });
}

async function authenticateApp(apps: AppDirectory, route: RouteDefinition, request: HttpRequest): Promise<CollectorAuth> {
  if (route.auth.kind === 'none') return undefined;
  const applicationId = APPLICATION_ID_HEADERS.map((h) => request.headers[h]?.trim()).find(Boolean);
  if (!applicationId) {
    throw new UnauthorizedError('The X-Service-Application-Id header is missing', [{ field: 'x-service-application-id', reason: 'missing' }]);
  }
  const app = await apps.findByCollectorApplicationId(applicationId);
  if (!app) throw new UnauthorizedError('The application id is not known', [{ field: 'x-service-application-id', reason: 'unknown application id' }]);
  return app;
}
