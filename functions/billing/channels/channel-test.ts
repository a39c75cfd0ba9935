import { randomUUID } from 'node:crypto';
import { ChannelTestRequest } from '../../../schemas/billing/channel';
import { WebhookParams } from '../../../schemas/resources/billing-meter';
import { appRulesPartition } from '../../resources/keys';
import { METER_PREFIX } from '../../management/billing-meters';
import { contextOf } from '../../resources/crud-operations';
import { optionalObjectBody } from '../../resources/optional-body';
import type { ResourceOperationTable } from '../../resources/resource-deps';
import type { ResourceStore } from '../../resources/resource-store';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { recordedHttp, RequestLog, type AttemptResult, type FetchLike, type HttpResponse } from '../providers/attempts';
import type { ProviderRequestRecord } from '../providers/provider-port';
import { webhookTransport } from '../providers/client-options';
import { systemRetryRuntime } from '../providers/retry-policy';
import { EVENT_ID_HEADER } from '../providers/webhook-client';
import { SIGNATURE_HEADER } from '../providers/webhook-signature';
import { channelFetch, signatureHeader, type DeliveryChannel } from './channel-delivery';
import { readDeliveryChannels } from './channel-reader';
import { parseBody } from '../../shared/invalid-input';

export const TEST_EVENT_TYPE = 'billing.test';
/** A test answers while the caller waits: one attempt, no retries, a short timeout. */
const TEST_TIMEOUT_MS = 10_000;

export interface ChannelTestDeps {
  readonly resources: ResourceStore;
  readonly now?: () => Date;
  /** Transport of test deliveries (tests of this module may pass their own). */
  readonly fetch?: FetchLike;
  /**
   * WEBHOOK_ALLOW_PRIVATE_TARGETS: channel URLs may name loopback/private addresses and deliveries
   * may connect to them (local mode, tests). False when absent: refused (400 on `url`, `forbidden_target` at delivery).
   */
  readonly webhookAllowPrivateTargets?: boolean;
}

/** One channel's outcome, in the shape reports use for `channel_requests[]`. */
export interface ChannelTestResult {
  channel_id: string;
  channel_name: string | null;
  success: boolean;
  provider_requests: ProviderRequestRecord[];
}

/**
 * `POST /~/billing/meters/{meterId}/webhooks/channels/test`: a signed `billing.test` event to each
 * channel of the meter's `webhook_params.channel_ids` (or the body's `channel_id`), signed and
 * transported exactly as usage deliveries are. Inactive channels are tested too (that is how a
 * channel is checked before it is switched on); ids naming no channel answer `channel_not_found`.
 */
export function channelTestOperations(deps: ChannelTestDeps): ResourceOperationTable {
  const store = deps.resources;
  const now = deps.now ?? (() => new Date());

  return {
    async 'billingChannels.test'(request, caller) {
      const ctx = contextOf(request, caller, now());
      const input = parseBody(ChannelTestRequest, optionalObjectBody(request));
      const meter = await store.get(
        { partition: appRulesPartition(ctx.orgId, ctx.appId), prefix: METER_PREFIX },
        request.pathParams.meterId ?? '',
        'billing meter',
      );
      const ids = input.channel_id !== undefined ? [input.channel_id] : meterChannelIds(meter);
      const channels = await readDeliveryChannels(deps, ctx.orgId, ctx.appId, ids, new Date(ctx.now));
      if (input.channel_id !== undefined && !channels.has(input.channel_id)) {
        throw new NotFoundError(`No channel ${input.channel_id} in this app`, [{ field: 'channel_id', reason: 'no such channel' }]);
      }
      const event = {
        id: `test_${randomUUID()}`,
        type: TEST_EVENT_TYPE,
        created: ctx.now,
        data: {
          org_id: ctx.orgId,
          app_id: ctx.appId,
          meter: { id: String(meter._id), name: String(meter.name) },
          message: 'Test delivery from the billing service; no usage is reported by this event.',
        },
      };
      const results = await Promise.all(
        [...new Set(ids)].map(async (id): Promise<ChannelTestResult> => {
          const channel = channels.get(id);
          if (!channel) return { channel_id: id, channel_name: null, success: false, provider_requests: [notFoundRecord(event.id, ctx.now)] };
          const requests = await deliverTest(
            channel,
            event,
            webhookTransport({ ...(deps.fetch ? { fetch: deps.fetch } : {}), allowPrivateTargets: deps.webhookAllowPrivateTargets ?? false }),
          );
          return { channel_id: id, channel_name: channel.name, success: requests.every((record) => record.success), provider_requests: requests };
        }),
      );
      return {
        status: 200,
        body: { billing_meter_id: String(meter._id), event_id: event.id, success: results.every((result) => result.success), channel_requests: results },
      };
    },
  };
}

/** The meter's webhook channels; a meter without any gets a 400 that says to name one. */
function meterChannelIds(meter: Record<string, unknown>): string[] {
  const plan = meter.billing_plan as { params?: { webhook_params?: unknown } } | undefined;
  const params = WebhookParams.safeParse(plan?.params?.webhook_params);
  if (!params.success || params.data.channel_ids.length === 0) {
    throw new ValidationError('The meter has no webhook channels (billing_plan.params.webhook_params.channel_ids); name one with channel_id', [
      { field: 'channel_id', reason: 'required: the meter has no webhook channels' },
    ]);
  }
  return params.data.channel_ids;
}

async function deliverTest(channel: DeliveryChannel, event: { id: string }, fetchFn: FetchLike): Promise<ProviderRequestRecord[]> {
  const log = new RequestLog();
  const body = JSON.stringify(event);
  const runtime = systemRetryRuntime;
  const signature = signatureHeader(body, channel.secrets, Math.floor(runtime.now().getTime() / 1000));
  await recordedHttp(
    { log, runtime, fetchFn: channelFetch(channel, fetchFn), timeoutMs: TEST_TIMEOUT_MS },
    event.id,
    channel.url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature, [EVENT_ID_HEADER]: event.id },
      body,
    },
    classifyTest,
  );
  return log.records;
}

/** Any 2xx is delivered; otherwise the receiver's status and (the start of) what it said. */
function classifyTest(response: HttpResponse): AttemptResult {
  if (response.status >= 200 && response.status < 300) return { kind: 'success', status: response.status };
  return { kind: 'failed', status: response.status, code: `http_${response.status}`, message: response.text.slice(0, 500) || `HTTP ${response.status}` };
}

function notFoundRecord(jobId: string, at: string): ProviderRequestRecord {
  return {
    job_id: jobId,
    request_time: at,
    success: false,
    status_code: 0,
    error_code: 'channel_not_found',
    error_message: 'the meter names a channel that does not exist in this app',
  };
}
