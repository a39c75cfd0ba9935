import type { App } from '../../schemas/app';
import type { RecordKind } from '../../schemas/stream-record';
import type { GovernanceRuleStore } from '../governance/rule-store';
import { collectorOpenApiOperations } from '../openapi/collector-openapi-operations';
import { ValidationError } from '../shared/errors';
import type { Operation } from '../shared/http/handler';
import type { HttpRequest } from '../shared/http/types';
import type { RecordPublisher } from '../ingest/stream/publisher';
import { UploadKind, type UploadStore } from '../ingest/uploads/upload-store';
import { collectRequest } from '../ingest/collector/collect';
import { configETag, etagHeaders, sdkConfigFor } from '../ingest/collector/sdk-config';

/** Who calls the collector: the app its application id resolved to (none for the probe). */
export type CollectorAuth = App | undefined;

export interface CollectorDeps {
  readonly publisher: RecordPublisher;
  readonly rules: GovernanceRuleStore;
  readonly uploads: UploadStore;
  readonly region: string;
}

export function collectorOperations(deps: CollectorDeps): Record<string, Operation<CollectorAuth>> {
  const ingest =
    (kind: RecordKind, batch: boolean): Operation<CollectorAuth> =>
    (request, app) =>
      collectRequest(deps.publisher, requireApp(app), kind, batch, request);

  return {
    events: ingest('event', false),
    eventsBatch: ingest('event', true),
    actions: ingest('action', false),
    actionsBatch: ingest('action', true),
    users: ingest('user', false),
    usersBatch: ingest('user', true),
    companies: ingest('company', false),
    companiesBatch: ingest('company', true),
    subscriptions: ingest('subscription', false),
    subscriptionsBatch: ingest('subscription', true),

    createUpload: async (request, app) => {
      const kind = UploadKind.safeParse(request.query['kind'] ?? 'event');
      if (!kind.success)
        throw new ValidationError('kind must be one of event, action, user, company, subscription', [
          { field: 'kind', reason: `unknown kind ${request.query['kind']}` },
        ]);
      return { status: 201, body: await deps.uploads.create(requireApp(app), kind.data) };
    },
    getUpload: async (request, app) => ({ status: 200, body: await deps.uploads.status(requireApp(app), request.pathParams['uploadId']!) }),

    config: async (_request: HttpRequest, app) => {
      const current = requireApp(app);
      const rules = await deps.rules.ruleConfig(current.org_id, current.app_id);
      // The tag of this body: membership can be newer here than on the (cached) app of ingest answers.
      return { status: 200, body: sdkConfigFor(current, rules), headers: etagHeaders(configETag(current, rules.tag)) };
    },
    rules: async (_request: HttpRequest, app) => {
      const current = requireApp(app);
      return { status: 200, body: await deps.rules.sdkRules(current.org_id, current.app_id) };
    },
    probe: async () => ({ status: 200, body: { status: true, region: deps.region } }),
    ...collectorOpenApiOperations(),
  };
}

function requireApp(app: CollectorAuth): App {
  // Routes that reach an ingest operation are authenticated; this guards a route-table mistake.
  if (!app) throw new Error('collector operation reached without an authenticated app');
  return app;
}
