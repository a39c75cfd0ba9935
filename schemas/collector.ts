import * as z from 'zod';
import { normaliseDateTime } from '../values/iso-date-time';

/**
 * What the Collector API accepts: API calls, actions, user and company profiles, subscriptions.
 *
 * Accepting by design, because the open-source SDKs (moesif-nodejs, moesifapi, …) send these bodies
 * unmodified:
 * - every object is loose: keys we do not know (`tags`, `blocked_by`, `modifiedTime`, …) are kept;
 * - every optional field also accepts `null` and then counts as unset (SDK models serialise unset
 *   fields as null, e.g. `modified_time: null`);
 * - date-times are ISO 8601 strings, with `Z`, a numeric offset, or no offset at all (then UTC: the
 *   Python SDKs send `utcnow().isoformat()`); a fraction (up to 9 digits) is cut to milliseconds;
 *   a bare date means midnight UTC. Every date-time is normalised to `toISOString()` form.
 *   Epoch numbers are refused: seconds and milliseconds cannot be told apart reliably.
 * - header values may be numbers, booleans or arrays (Node's `res.getHeaders()` gives
 *   `content-length: 123` and `set-cookie: [...]`): they become strings, arrays joined by ", "
 *   (the spec joins same-name headers with commas); null values are dropped.
 * - `transfer_encoding` may be "" (the public API docs send it) and then means `json`.
 *
 * For throughput, functions/ingest/collector/fast-path.ts accepts common API calls and actions
 * without zod; it must never be more permissive than ApiCallEvent/ActionEvent here (a test compares
 * them on generated records), so a rule made stricter here must be made stricter there too.
 */

/** An ISO 8601 date-time string, normalised to UTC `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export const DateTime = z
  .string({ error: typeError('expected an ISO 8601 date-time string') })
  .meta({
    anyOf: [
      { type: 'string', format: 'date-time' },
      { type: 'string', format: 'date' },
    ],
    description: 'ISO 8601: a date-time (with Z, an offset, or none for UTC) or a date (midnight UTC).',
  })
  .transform((text, ctx) => {
    const normalised = normaliseDateTime(text);
    if (normalised === undefined) {
      ctx.issues.push({ code: 'custom', input: text, message: 'expected an ISO 8601 date-time such as 2024-05-01T12:00:00.000Z' });
      return z.NEVER;
    }
    return normalised;
  });

/** Type errors say "is required" when the value is missing, else the given expectation. */
function typeError(expected: string): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? 'is required' : expected);
}

const NonEmptyString = z.string().min(1, 'must not be empty');
const OptionalString = z.string().nullish();
const OptionalNonEmptyString = NonEmptyString.nullish();

/**
 * user_id, company_id and subscription_id are keys of stored profiles and of index documents (the
 * index's document id is `<app_id>:<id>`, at most 512 bytes; the profile's sort key `<kind>#<id>`):
 * 256 UTF-8 bytes leaves room for both.
 */
export const MAX_ID_BYTES = 256;
export function fitsIdLimit(text: string): boolean {
  // Fast path: no string of at most 64 UTF-16 units passes 256 UTF-8 bytes.
  return text.length <= MAX_ID_BYTES / 4 || Buffer.byteLength(text, 'utf8') <= MAX_ID_BYTES;
}
const Identifier = NonEmptyString.refine(fitsIdLimit, `must be at most ${MAX_ID_BYTES} bytes (UTF-8)`);
const OptionalIdentifier = Identifier.nullish();

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Free-form JSON object. Not copied key by key: it is stored as sent. */
export const JsonObject = z.custom<Record<string, unknown>>(isPlainObject, 'expected a JSON object').meta({ type: 'object' });
const Metadata = JsonObject.nullish();

/**
 * A header map: one pass, and the same object back when every value is already a string
 * (the common case), so large header maps are not copied.
 */
const HEADER_VALUE = { type: ['string', 'number', 'boolean', 'null'] };
export const HeaderMap = z
  .custom<Record<string, unknown>>(isPlainObject, { error: typeError('expected an object mapping header names to values') })
  .meta({ type: 'object', additionalProperties: { anyOf: [HEADER_VALUE, { type: 'array', items: HEADER_VALUE }] } })
  .transform((value, ctx): Record<string, string> => {
    const headers = normaliseHeaders(value);
    if (headers) return headers;
    for (const name in value) {
      if (headerText(value[name]) === INVALID_HEADER) {
        ctx.issues.push({ code: 'custom', input: value[name], path: [name], message: 'a header value must be a string, number, boolean or an array of those' });
      }
    }
    return z.NEVER;
  });

/**
 * Header values as strings (see the rules at the top), without touching the given map: the same
 * object when every value already is a string, else a copy. Undefined when a value cannot be one.
 */
export function normaliseHeaders(headers: Record<string, unknown>): Record<string, string> | undefined {
  let result: Record<string, string> | undefined;
  for (const name in headers) {
    const raw = headers[name];
    if (typeof raw === 'string') {
      if (result) setHeader(result, name, raw);
      continue;
    }
    const text = headerText(raw);
    if (text === INVALID_HEADER) return undefined;
    result ??= copyStringHeadersBefore(headers, name);
    if (text !== undefined) setHeader(result, name, text);
  }
  return result ?? (headers as Record<string, string>);
}

const INVALID_HEADER = Symbol('invalid header');

function headerText(raw: unknown): string | undefined | typeof INVALID_HEADER {
  switch (typeof raw) {
    case 'string':
      return raw;
    case 'number':
    case 'boolean':
      return String(raw);
    case 'undefined':
      return undefined;
    case 'object': {
      if (raw === null) return undefined;
      if (!Array.isArray(raw)) return INVALID_HEADER;
      const parts: string[] = [];
      for (const part of raw) {
        if (part === null || part === undefined) continue;
        const text = headerText(part);
        if (text === INVALID_HEADER || Array.isArray(part)) return INVALID_HEADER;
        if (text !== undefined) parts.push(text);
      }
      return parts.join(', ');
    }
    default:
      return INVALID_HEADER;
  }
}

/** The headers before `stopAt`, all strings (normaliseHeaders copies only once it meets another value). */
function copyStringHeadersBefore(headers: Record<string, unknown>, stopAt: string): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const name in headers) {
    if (name === stopAt) break;
    setHeader(copy, name, headers[name] as string);
  }
  return copy;
}

/** Assignment that also stores a header literally named `__proto__` as data, not as the prototype. */
function setHeader(headers: Record<string, string>, name: string, value: string): void {
  if (name === '__proto__') Object.defineProperty(headers, name, { value, enumerable: true, writable: true, configurable: true });
  else headers[name] = value;
}

/** `json` (the default, body is any JSON value) or `base64` (body is a base64 string). */
export const TransferEncoding = z
  .enum(['json', 'base64', ''], { error: typeError('must be json or base64') })
  .nullish()
  .transform((value): 'json' | 'base64' => (value === 'base64' ? 'base64' : 'json'));
export type TransferEncoding = z.infer<typeof TransferEncoding>;

/** Strict standard base64 (RFC 4648 §4, padded): what every SDK's encoder produces. */
export function isBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64.test(text);
}
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The body rule shared by requests and responses: base64 bodies must be strings of valid base64. */
function checkBody(ctx: z.core.ParsePayload<{ body?: unknown; transfer_encoding: 'json' | 'base64' }>): void {
  const { body, transfer_encoding } = ctx.value;
  if (transfer_encoding !== 'base64' || body === undefined || body === null) return;
  if (typeof body !== 'string') {
    ctx.issues.push({ code: 'custom', input: body, path: ['body'], message: 'with transfer_encoding base64 the body must be a base64 string' });
  } else if (!isBase64(body)) {
    ctx.issues.push({ code: 'custom', input: body, path: ['body'], message: 'is not valid base64 (standard alphabet, padded to a multiple of 4 characters)' });
  }
}

/** HTTP status codes are three digits, 100–599 (moesif-nodejs reports 599 when it saw none). */
export const HttpStatus = z
  .int({ error: typeError('must be an integer') })
  .min(100, 'must be an HTTP status code 100–599')
  .max(599, 'must be an HTTP status code 100–599');

export const ApiCallRequest = z
  .looseObject({
    time: DateTime,
    uri: NonEmptyString,
    verb: NonEmptyString,
    api_version: OptionalString,
    ip_address: OptionalString,
    headers: HeaderMap,
    body: z.unknown().optional(),
    transfer_encoding: TransferEncoding,
  })
  .check(checkBody);
export type ApiCallRequest = z.infer<typeof ApiCallRequest>;

export const ApiCallResponse = z
  .looseObject({
    time: DateTime,
    status: HttpStatus,
    ip_address: OptionalString,
    headers: HeaderMap,
    body: z.unknown().optional(),
    transfer_encoding: TransferEncoding,
  })
  .check(checkBody);
export type ApiCallResponse = z.infer<typeof ApiCallResponse>;

export const Span = z.looseObject({
  id: OptionalString,
  parent_id: OptionalString,
  links: z.array(z.unknown()).nullish(),
  status: z.int().nullish(),
});

/** A client-chosen dedup id: the spec fixes its length (a UUID's 36 characters), not its alphabet. */
export const TransactionId = z.string().length(36, 'must be exactly 36 characters (a UUID)');

export const Direction = z.enum(['Incoming', 'Outgoing', 'Internal']);

/** Fields the service writes into an event it voids (functions/event-voids): a sender cannot set them. */
const SetByVoid = z.undefined({ error: 'is set by the service when an event is voided; send events without it' }).optional();

export const ApiCallEvent = z.looseObject({
  request: ApiCallRequest,
  /** May be absent, e.g. when the call timed out. */
  response: ApiCallResponse.nullish(),
  span: Span.nullish(),
  action_name: OptionalString,
  trace_id: OptionalString,
  transaction_id: TransactionId.nullish(),
  session_token: OptionalString,
  user_id: OptionalIdentifier,
  company_id: OptionalIdentifier,
  subscription_id: OptionalIdentifier,
  /** A visitor not yet identified (moesif-browser-js); attributed to a user once identified. */
  anonymous_id: OptionalIdentifier,
  direction: Direction.nullish(),
  /** 1 / sampling rate: how many calls this one stands for. */
  weight: z
    .int({ error: typeError('must be an integer') })
    .min(1, 'must be a positive integer')
    .nullish()
    .transform((value) => value ?? 1),
  metadata: Metadata,
  voided_at: SetByVoid,
  void_id: SetByVoid,
});
export type ApiCallEvent = z.infer<typeof ApiCallEvent>;

export const ActionRequest = z.looseObject({
  /** Set by the collector to the time it received the action when unset. */
  time: DateTime.nullish(),
  uri: NonEmptyString,
  ip_address: OptionalString,
  user_agent_string: OptionalString,
});

export const ActionEvent = z.looseObject({
  action_name: NonEmptyString,
  session_token: OptionalString,
  user_id: OptionalIdentifier,
  company_id: OptionalIdentifier,
  anonymous_id: OptionalIdentifier,
  transaction_id: TransactionId.nullish(),
  metadata: Metadata,
  request: ActionRequest,
  voided_at: SetByVoid,
  void_id: SetByVoid,
});
export type ActionEvent = z.infer<typeof ActionEvent>;

export const Campaign = z.looseObject({
  utm_source: OptionalString,
  utm_medium: OptionalString,
  utm_campaign: OptionalString,
  utm_term: OptionalString,
  utm_content: OptionalString,
});

/**
 * A user, or an anonymous visitor: moesif-browser-js posts `{anonymous_id, campaign}` for a visitor
 * not yet identified, and `{user_id, anonymous_id, …}` when it identifies one, which attributes the
 * visitor's activity to the user. One of the two ids is required.
 */
/** JSON Schema for "this member is set": the documents' form of the user_id-or-anonymous_id rule. */
const NAMED_BY = (field: string) => ({ required: [field], properties: { [field]: { type: 'string' } } });

export const UserProfile = z
  .looseObject({
    user_id: OptionalIdentifier,
    anonymous_id: OptionalIdentifier,
    company_id: OptionalIdentifier,
    session_token: OptionalString,
    campaign: Campaign.nullish(),
    metadata: Metadata,
    ip_address: OptionalString,
    modified_time: DateTime.nullish(),
  })
  .check((ctx) => {
    // Only when both are unset: a present but invalid id has its own issue already.
    if (ctx.value.user_id == null && ctx.value.anonymous_id == null) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value.user_id,
        path: ['user_id'],
        message: 'is required (an anonymous visitor is sent with anonymous_id instead)',
      });
    }
  })
  .meta({ anyOf: [NAMED_BY('user_id'), NAMED_BY('anonymous_id')] });
export type UserProfile = z.infer<typeof UserProfile>;

export const CompanyProfile = z.looseObject({
  company_id: Identifier,
  company_domain: OptionalString,
  session_token: OptionalString,
  campaign: Campaign.nullish(),
  metadata: Metadata,
  ip_address: OptionalString,
  modified_time: DateTime.nullish(),
});
export type CompanyProfile = z.infer<typeof CompanyProfile>;

export const SubscriptionStatus = z.enum(['active', 'cancelled', 'paused', 'trialing', 'pending', 'draft', 'future']);

export const SubscriptionItem = z.looseObject({
  plan_id: OptionalNonEmptyString,
  subscription_item_id: OptionalNonEmptyString,
  price_id: OptionalNonEmptyString,
  unit_of_measure: OptionalString,
  created_at: DateTime.nullish(),
  metadata: Metadata,
});

export const Subscription = z.looseObject({
  subscription_id: Identifier,
  company_id: Identifier,
  status: SubscriptionStatus,
  current_period_start: DateTime.nullish(),
  current_period_end: DateTime.nullish(),
  items: z.array(SubscriptionItem).nullish(),
  metadata: Metadata,
  created_at: DateTime.nullish(),
  modified_time: DateTime.nullish(),
});
export type Subscription = z.infer<typeof Subscription>;
