import { verifyWebhook } from '../../../functions/billing/providers/webhook-signature';
import { addTo, FakeProviderServer, header, isJson, type FakeReply, type FakeRequest, type FakeServerOptions } from './fake-server';

/**
 * A receiver of the service's billing webhooks, written the way the docs tell receivers to: one
 * secret per channel (`POST /channels/{channel_id}`), the `X-Usage-Signature` checked over the raw
 * body, events deduplicated by `id`, and each window's `delta` added to the subscription's total.
 */
export interface FakeWebhookReceiverOptions extends FakeServerOptions {
  /** Signing secret per channel id. */
  readonly secrets: Record<string, string>;
  readonly toleranceSeconds?: number;
}

export interface ReceivedEvent {
  readonly channelId: string;
  readonly id: string;
  readonly data: Record<string, unknown>;
}

const CHANNEL_PATH = /^\/channels\/([^/]+)$/;

export class FakeWebhookReceiver extends FakeProviderServer {
  private readonly processed = new Map<string, ReceivedEvent>();

  constructor(private readonly options: FakeWebhookReceiverOptions) {
    super(options);
  }

  channelUrl(channelId: string): string {
    return `${this.url}/channels/${encodeURIComponent(channelId)}`;
  }

  events(): ReceivedEvent[] {
    return [...this.processed.values()];
  }

  /** Sum of deltas per subscription id (per channel when several channels get the same events: key `channel/subscription`). */
  totals(): Record<string, bigint> {
    const totals = new Map<string, bigint>();
    for (const event of this.processed.values()) {
      const subscription = (event.data.subscription as { id: string }).id;
      addTo(totals, Object.keys(this.options.secrets).length > 1 ? `${event.channelId}/${subscription}` : subscription, BigInt(event.data.delta as number));
    }
    return Object.fromEntries(totals);
  }

  protected isUsageRequest(request: FakeRequest): boolean {
    return request.method === 'POST' && CHANNEL_PATH.test(request.path);
  }

  protected errorReply(status: number, message: string, code: string): FakeReply {
    return { status, body: { error: { code, message } } };
  }

  protected handle(request: FakeRequest): FakeReply {
    const match = CHANNEL_PATH.exec(request.path);
    if (request.method !== 'POST' || !match) return this.errorReply(404, 'no such channel endpoint', 'not_found');
    const channelId = decodeURIComponent(match[1]!);
    const secret = this.options.secrets[channelId];
    if (secret === undefined) return this.errorReply(404, `unknown channel ${channelId}`, 'not_found');
    if (!isJson(request)) return this.errorReply(415, 'expected application/json', 'unsupported_media_type');
    const check = verifyWebhook(
      request.body,
      header(request, 'x-usage-signature'),
      secret,
      Math.floor(this.now().getTime() / 1000),
      this.options.toleranceSeconds,
    );
    if (!check.valid) return this.errorReply(401, check.reason, 'invalid_signature');

    const event = JSON.parse(request.body) as { id?: unknown; type?: unknown; data?: Record<string, unknown> };
    // The billing run batches a window's reports: each inner event is checked and deduplicated on its own id.
    if (event.type === 'billing.usage_report.batch') {
      const inner = (event.data as { events?: unknown } | undefined)?.events;
      if (typeof event.id !== 'string' || !Array.isArray(inner) || inner.length === 0)
        return this.errorReply(400, 'a batch carries data.events', 'invalid_event');
      for (const item of inner) {
        const problem = this.check(item as { id?: unknown; type?: unknown; data?: Record<string, unknown> });
        if (problem) return problem;
      }
      let duplicates = 0;
      for (const item of inner as { id: string; data: Record<string, unknown> }[]) if (!this.accept(channelId, item)) duplicates += 1;
      return { status: 200, body: { received: true, events: inner.length, duplicates } };
    }
    const problem = this.check(event);
    if (problem) return problem;
    if (!this.accept(channelId, event as { id: string; data: Record<string, unknown> })) return { status: 200, body: { received: true, duplicate: true } };
    return { status: 200, body: { received: true } };
  }

  /** A refusal for a malformed billing.usage_report event, or undefined when it is well formed. */
  private check(event: { id?: unknown; type?: unknown; data?: Record<string, unknown> }): FakeReply | undefined {
    if (typeof event.id !== 'string' || event.type !== 'billing.usage_report' || !event.data)
      return this.errorReply(400, 'not a billing.usage_report event', 'invalid_event');
    const data = event.data;
    for (const field of ['quantity', 'previous_quantity', 'delta', 'report_total_usage', 'report_version'] as const) {
      if (typeof data[field] !== 'number' || !Number.isInteger(data[field])) return this.errorReply(400, `data.${field} must be an integer`, 'invalid_event');
    }
    if ((data.quantity as number) - (data.previous_quantity as number) !== data.delta)
      return this.errorReply(400, 'data.delta must be quantity − previous_quantity', 'invalid_event');
    if (typeof (data.subscription as { id?: unknown } | undefined)?.id !== 'string')
      return this.errorReply(400, 'data.subscription.id is required', 'invalid_event');
    return undefined;
  }

  /** Records an event once per channel; false for a repeat. */
  private accept(channelId: string, event: { id: string; data: Record<string, unknown> }): boolean {
    const dedupeKey = `${channelId}\u0000${event.id}`;
    if (this.processed.has(dedupeKey)) return false;
    this.processed.set(dedupeKey, { channelId, id: event.id, data: event.data });
    return true;
  }
}
