import { booleanOf, numberOf, objectOf, textOf, type StoredHit } from '../../../lib/json-object';

/** An event as the search API returns it (`_source`), with the fields the console shows. */
export interface EventSource {
  readonly event_type?: 'api_call' | 'action';
  readonly action_name?: string;
  readonly request?: {
    readonly time?: string;
    readonly uri?: string;
    readonly verb?: string;
    readonly route?: string;
    readonly ip_address?: string;
    readonly headers?: Record<string, unknown>;
    readonly body?: unknown;
    readonly transfer_encoding?: string;
    /** The SDK sent only the start of the body. */
    readonly body_truncated?: boolean;
  };
  readonly response?: {
    readonly time?: string;
    readonly status?: number;
    readonly headers?: Record<string, unknown>;
    readonly body?: unknown;
    readonly transfer_encoding?: string;
    readonly body_truncated?: boolean;
  };
  readonly user_id?: string;
  readonly company_id?: string;
  readonly session_token?: string;
  readonly duration_ms?: number;
  readonly metadata?: Record<string, unknown>;
  /** Set when the event was voided (kept, left out of reads unless asked for), and by which void. */
  readonly voided_at?: string;
  readonly void_id?: string;
  readonly [field: string]: unknown;
}

export interface EventHit {
  readonly _id: string;
  readonly _source: EventSource;
  readonly sort?: readonly unknown[];
}

/** The request or response of a stored event, with the fields the console shows read by type. */
function callPartOf(part: Record<string, unknown>) {
  return {
    ...part,
    time: textOf(part['time']),
    headers: objectOf(part['headers']),
    body: part['body'],
    transfer_encoding: textOf(part['transfer_encoding']),
    body_truncated: booleanOf(part['body_truncated']),
  };
}

/** An event hit as the console reads it: the stored document, with each field it shows checked for its type. */
export function eventHitOf(hit: StoredHit): EventHit {
  const source = hit._source ?? {};
  const request = objectOf(source['request']);
  const response = objectOf(source['response']);
  const eventType = source['event_type'];
  return {
    _id: hit._id,
    ...(hit.sort ? { sort: hit.sort } : {}),
    _source: {
      ...source,
      event_type: eventType === 'api_call' || eventType === 'action' ? eventType : undefined,
      action_name: textOf(source['action_name']),
      request: request && {
        ...callPartOf(request),
        uri: textOf(request['uri']),
        verb: textOf(request['verb']),
        route: textOf(request['route']),
        ip_address: textOf(request['ip_address']),
      },
      response: response && { ...callPartOf(response), status: numberOf(response['status']) },
      user_id: textOf(source['user_id']),
      company_id: textOf(source['company_id']),
      session_token: textOf(source['session_token']),
      duration_ms: numberOf(source['duration_ms']),
      metadata: objectOf(source['metadata']),
      voided_at: textOf(source['voided_at']),
      void_id: textOf(source['void_id']),
    },
  };
}
