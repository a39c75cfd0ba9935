import type { App } from '../../../schemas/app';
import { readJsonBody } from '../../shared/http/body';
import type { ReservedMemberRules } from '../../shared/http/reserved-members';
import type { HttpRequest } from '../../shared/http/types';
import { MAX_BATCH_BYTES } from './request-limits';
import type { RecordKind } from '../../../schemas/stream-record';
import { packStreamEntries } from '../stream/pack-records';
import type { RecordPublisher } from '../stream/publisher';
import { normaliseItems } from './normalise';

/** Collector items are stored as JSON text: `__proto__` is data inside the free-form members, which are kept as sent. */
export const COLLECTOR_BODY_RULES: ReservedMemberRules = { keptUnder: new Set(['metadata', 'body']), storedAsMaps: false };

export interface CollectInput {
  readonly app: App;
  readonly kind: RecordKind;
  readonly batch: boolean;
  /** The decoded JSON body. */
  readonly body: unknown;
  readonly receivedAt: Date;
  readonly sourceIp: string;
  readonly forwardedFor?: string;
}

export interface CollectResult {
  readonly accepted: number;
}

/**
 * An ingest request as both APIs take it (the collector's routes, and profile writes with a
 * management token): its JSON body collected for `app`, answered 201 {"accepted": N}.
 */
export async function collectRequest(
  publisher: RecordPublisher,
  app: App,
  kind: RecordKind,
  batch: boolean,
  request: HttpRequest,
): Promise<{ status: 201; body: CollectResult }> {
  const body = readJsonBody(request, MAX_BATCH_BYTES, COLLECTOR_BODY_RULES);
  const result = await collect(publisher, {
    app,
    kind,
    batch,
    body,
    receivedAt: request.receivedAt,
    sourceIp: request.sourceIp,
    forwardedFor: request.headers['x-forwarded-for'],
  });
  return { status: 201, body: result };
}

/**
 * The collector's domain step, shared by the HTTP routes and the large-upload processor: validate and
 * normalise every item (all-or-nothing), pack them into stream records, and return only once the
 * stream accepted every record.
 */
export async function collect(publisher: RecordPublisher, input: CollectInput): Promise<CollectResult> {
  const items = normaliseItems(
    input.kind,
    input.body,
    { batch: input.batch },
    {
      receivedAt: input.receivedAt,
      sourceIp: input.sourceIp,
      forwardedFor: input.forwardedFor,
      backfillEnabled: input.app.settings.backfill_enabled,
    },
  );
  if (items.length === 0) return { accepted: 0 };
  await publisher.publish(packStreamEntries(input.app, input.kind, items));
  return { accepted: items.length };
}
