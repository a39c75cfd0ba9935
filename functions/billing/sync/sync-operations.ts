import { SyncedProvider } from '../../../schemas/billing/provider-sync';
import type { ManagementCaller } from '../../management-tokens/management-auth';
import { contextOf } from '../../resources/crud-operations';
import type { ResourceStore } from '../../resources/resource-store';
import { NotFoundError, ServiceUnavailableError } from '../../shared/errors';
import type { Operation } from '../../shared/http/handler';
import { applyProviderEvent, type ProviderEvent, type WebhookDeps } from './apply-event';
import { chargebeeEventOf, verifyBasicAuth, zuoraEventOf } from './basic-auth-webhooks';
import { recurlyEventOf, verifyRecurlySignature } from './recurly-webhooks';
import { stripeEventOf, verifyStripeSignature } from './stripe-webhooks';
import type { ProviderReader } from './provider-reader';
import { readSync, requestSync, type SyncTenant } from './sync-records';

export interface SyncOperationDeps {
  readonly resources: ResourceStore;
  /** Runs the app's due syncs now where the runtime can (locally); on AWS the billing schedule takes the request up. */
  readonly startNow?: (tenant: { orgId: string; appId: string }) => void;
  readonly now?: () => Date;
  /** What a provider's webhook needs; none: webhooks are refused (503) where the runtime cannot read the connections. */
  readonly webhooks?: WebhookDeps & {
    /** The app's webhook endpoint at a provider: its signing secret and the reader of its account (from its connection); none: not set up. */
    readonly endpointOf: (tenant: SyncTenant, provider: WebhookProvider) => Promise<{ readonly secret: string; readonly reader: ProviderReader } | undefined>;
    readonly appExists: (tenant: SyncTenant) => Promise<boolean>;
  };
}

type SyncOperation = Operation<ManagementCaller | undefined>;

/**
 * How each provider's webhooks prove their sender (a signature over the body, or basic
 * authentication with the connection's secret: basic-auth-webhooks.ts) and name what changed.
 */
const WEBHOOKS = {
  stripe: { header: 'stripe-signature', verify: verifyStripeSignature, eventOf: stripeEventOf },
  recurly: { header: 'recurly-signature', verify: verifyRecurlySignature, eventOf: recurlyEventOf },
  chargebee: { header: 'authorization', verify: verifyBasicAuth, eventOf: chargebeeEventOf },
  zuora: { header: 'authorization', verify: verifyBasicAuth, eventOf: zuoraEventOf },
} satisfies Record<
  SyncedProvider,
  {
    header: string;
    verify: (payload: Buffer, header: string | undefined, secret: string, now: Date) => void;
    eventOf: (payload: Buffer, headers: Readonly<Record<string, string | undefined>>) => ProviderEvent;
  }
>;
export type WebhookProvider = keyof typeof WEBHOOKS;

/** The provider in the path; another is a path that does not exist (404), as `/providers/foo` is no resource. */
function providerOf(value: string | undefined): SyncedProvider {
  const parsed = SyncedProvider.safeParse(value);
  if (!parsed.success)
    throw new NotFoundError(`Records cannot be synced in from ${JSON.stringify(value)}: the providers synced are ${SyncedProvider.options.join(', ')}`);
  return parsed.data;
}

/**
 * Sync in from a billing provider, for the token's app:
 * - POST /~/billing/providers/{provider}/sync → 202, the sync asked for (or the one running)
 * - GET  /~/billing/providers/{provider}/sync → its progress, counts and what was left out
 * - POST /public/providers/{provider}/webhooks/{orgId}/{appId} → the provider's verified event, applied (apply-event.ts)
 */
export function syncOperations(deps: SyncOperationDeps): Record<'requestProviderSync' | 'getProviderSync' | 'providerWebhook', SyncOperation> {
  const now = deps.now ?? (() => new Date());
  return {
    async requestProviderSync(request, caller) {
      const ctx = contextOf(request, caller, now());
      const sync = await requestSync(deps.resources, ctx, providerOf(request.pathParams['provider']), now());
      deps.startNow?.(ctx);
      return { status: 202, body: sync };
    },
    async getProviderSync(request, caller) {
      const ctx = contextOf(request, caller, now());
      const provider = providerOf(request.pathParams['provider']);
      const sync = await readSync(deps.resources, ctx, provider);
      if (!sync) throw new NotFoundError(`The app has never synced from ${provider}`);
      return { status: 200, body: sync };
    },
    async providerWebhook(request) {
      const provider = providerOf(request.pathParams['provider']);
      const taken = WEBHOOKS[provider];
      const webhooks = deps.webhooks;
      if (!webhooks) throw new ServiceUnavailableError('Provider webhooks are not served here');
      const tenant = { orgId: request.pathParams['orgId'] ?? '', appId: request.pathParams['appId'] ?? '' };
      const endpoint = await webhooks.endpointOf(tenant, provider);
      // One answer for an unknown app and an app without a webhook secret: the URL tells a stranger nothing.
      if (!endpoint || !(await webhooks.appExists(tenant))) throw new NotFoundError(`No ${provider} webhook endpoint is set up here`);
      taken.verify(request.rawBody, request.headers[taken.header], endpoint.secret, now());
      return { status: 200, body: await applyProviderEvent(webhooks, tenant, endpoint.reader, taken.eventOf(request.rawBody, request.headers)) };
    },
  };
}
