import { boardSchemas } from './board-route-schemas';
import {
  balanceSchemas,
  catalogSchemas,
  channelSchemas,
  completenessSchemas,
  reconcileSchemas,
  reportSchemas,
  planChangeSchemas,
  simulationSchemas,
  syncSchemas,
} from './billing-route-schemas';
import { collectorSchemas } from './collector-route-schemas';
import { exportSchemas, oauthSchemas, resourceSchemas } from './management-route-schemas';
import type { RouteSchema } from './route-schema';
import { documentSchemas, searchSchemas } from './search-route-schemas';
import { sharedViewSchemas } from './shared-view-route-schemas';
import { emailSchemas } from './email-route-schemas';
import { ethAbiSchemas } from './eth-abi-route-schemas';
import { customerSchemas } from './customer-route-schemas';
import { eventVoidSchemas } from './event-void-route-schemas';

export type { ErrorStatus, RouteSchema } from './route-schema';

/**
 * What the OpenAPI documents say about each operation of the route table, keyed by operation name:
 * the zod schemas of its query, body and answer. Only the generator (bin/openapi.ts) and tests
 * import this file; the Lambdas serve the generated JSON, so their bundles never carry it.
 *
 * Statuses that follow from the route itself are added by the generator (401 for authenticated
 * routes, 402 and 429 for token routes, 400/413/415 for routes with a body, 406 everywhere);
 * `errors` lists the ones only the operation knows about (a missing id, a deleted resource, a
 * dependency that did not take a write).
 */
export const routeSchemas: Readonly<Record<string, RouteSchema>> = {
  ...collectorSchemas,
  ...searchSchemas,
  ...eventVoidSchemas,
  ...documentSchemas,
  ...oauthSchemas,
  ...resourceSchemas,
  ...exportSchemas,
  ...boardSchemas,
  ...catalogSchemas,
  ...channelSchemas,
  ...reportSchemas,
  ...balanceSchemas,
  ...syncSchemas,
  ...reconcileSchemas,
  ...completenessSchemas,
  ...simulationSchemas,
  ...planChangeSchemas,
  ...sharedViewSchemas,
  ...emailSchemas,
  ...ethAbiSchemas,
  ...customerSchemas,
};
