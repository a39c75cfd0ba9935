import { fitsIdLimit, isBase64, isPlainObject, normaliseHeaders, type ActionEvent, type ApiCallEvent } from '../../../schemas/collector';
import { normaliseDateTime } from '../../../values/iso-date-time';

/**
 * Fast acceptance of API calls and actions in the shapes SDKs send, validated and normalised in place.
 *
 * Why: parsing with zod copies every object and walks every field through generic machinery, which
 * alone costs over twice a JSON.parse of the same batch; the collector's throughput target
 * (docs/benchmarks.md) leaves room for a fraction of that. These checks
 * cover every field of the common shapes and apply the schema's own normalisers
 * (normaliseDateTime, normaliseHeaders) and defaults to the object itself.
 *
 * The zod schemas in schemas/collector.ts stay the definition: a record these checks do not
 * recognise (anything invalid) goes through zod, which also writes the error details. Every check
 * here is at least as strict as the schema's, and a test compares the two on generated records
 * (test/unit/collector/fast-path.test.ts). Nothing is modified unless the whole record is accepted.
 */

/** The record itself, normalised, when it is a valid API call in a common shape; else undefined (record untouched). */
export function fastApiCallEvent(record: unknown): ApiCallEvent | undefined {
  if (!isPlainObject(record)) return undefined;
  const request = record['request'];
  const response = record['response'];
  if (!isPlainObject(request) || !isNonEmptyString(request['uri']) || !isNonEmptyString(request['verb']) || !isOptionalString(request['api_version'])) {
    return undefined;
  }
  const requestUpdate = readMessage(request);
  if (!requestUpdate) return undefined;
  let responseUpdate: MessageUpdate | undefined;
  if (response !== undefined && response !== null) {
    if (!isPlainObject(response) || !isHttpStatus(response['status'])) return undefined;
    responseUpdate = readMessage(response);
    if (!responseUpdate) return undefined;
  }
  if (
    !isOptionalSpan(record['span']) ||
    !isOptionalString(record['action_name']) ||
    !isOptionalString(record['trace_id']) ||
    !isOptionalString(record['session_token']) ||
    !isOptionalTransactionId(record['transaction_id']) ||
    !isOptionalIdentifier(record['user_id']) ||
    !isOptionalIdentifier(record['company_id']) ||
    !isOptionalIdentifier(record['subscription_id']) ||
    !isOptionalIdentifier(record['anonymous_id']) ||
    !isOptionalDirection(record['direction']) ||
    !isOptionalWeight(record['weight']) ||
    !isOptionalObject(record['metadata']) ||
    !withoutVoidMark(record)
  ) {
    return undefined;
  }

  applyMessage(request, requestUpdate);
  if (responseUpdate) applyMessage(response as Record<string, unknown>, responseUpdate);
  if (record['weight'] === undefined || record['weight'] === null) record['weight'] = 1;
  return record as ApiCallEvent;
}

/** The record itself, normalised, when it is a valid action in the common shape; else undefined (record untouched). */
export function fastActionEvent(record: unknown): ActionEvent | undefined {
  if (!isPlainObject(record)) return undefined;
  const request = record['request'];
  if (!isPlainObject(request) || !isNonEmptyString(request['uri'])) return undefined;
  const time = request['time'];
  let normalisedTime: string | undefined;
  if (time !== undefined && time !== null) {
    normalisedTime = typeof time === 'string' ? normaliseDateTime(time) : undefined;
    if (normalisedTime === undefined) return undefined;
  }
  if (
    !isOptionalString(request['ip_address']) ||
    !isOptionalString(request['user_agent_string']) ||
    !isNonEmptyString(record['action_name']) ||
    !isOptionalString(record['session_token']) ||
    !isOptionalIdentifier(record['user_id']) ||
    !isOptionalIdentifier(record['company_id']) ||
    !isOptionalIdentifier(record['anonymous_id']) ||
    !isOptionalTransactionId(record['transaction_id']) ||
    !isOptionalObject(record['metadata']) ||
    !withoutVoidMark(record)
  ) {
    return undefined;
  }
  if (normalisedTime !== undefined) request['time'] = normalisedTime;
  return record as ActionEvent;
}

/** What readMessage found valid and will write back once the whole record is accepted. */
interface MessageUpdate {
  time: string;
  headers: Record<string, string>;
  transferEncoding: 'json' | 'base64';
}

/** The parts requests and responses share: time, ip_address, headers, encoding and body. */
function readMessage(message: Record<string, unknown>): MessageUpdate | undefined {
  const rawTime = message['time'];
  const time = typeof rawTime === 'string' ? normaliseDateTime(rawTime) : undefined;
  const rawHeaders = message['headers'];
  if (time === undefined || !isOptionalString(message['ip_address']) || !isPlainObject(rawHeaders)) return undefined;
  const headers = normaliseHeaders(rawHeaders);
  if (!headers) return undefined;
  const encoding = message['transfer_encoding'];
  if (encoding === 'base64') {
    const body = message['body'];
    const validBody = body === undefined || body === null || (typeof body === 'string' && isBase64(body));
    return validBody ? { time, headers, transferEncoding: 'base64' } : undefined;
  }
  const json = encoding === undefined || encoding === null || encoding === 'json' || encoding === '';
  return json ? { time, headers, transferEncoding: 'json' } : undefined;
}

function applyMessage(message: Record<string, unknown>, update: MessageUpdate): void {
  message['time'] = update.time;
  message['headers'] = update.headers;
  message['transfer_encoding'] = update.transferEncoding;
}

/** Ids are also capped in length (schemas/collector.ts, MAX_ID_BYTES); a longer one takes the schema's path, which names the field. */
function isOptionalIdentifier(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.length > 0 && fitsIdLimit(value));
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0;
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

function isOptionalTransactionId(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.length === 36);
}

function isOptionalDirection(value: unknown): boolean {
  return value === undefined || value === null || value === 'Incoming' || value === 'Outgoing' || value === 'Internal';
}

function isOptionalWeight(value: unknown): boolean {
  return value === undefined || value === null || (Number.isSafeInteger(value) && (value as number) >= 1);
}

function isOptionalObject(value: unknown): boolean {
  return value === undefined || value === null || isPlainObject(value);
}

function isOptionalSpan(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (!isPlainObject(value)) return false;
  const links = value['links'];
  const status = value['status'];
  return (
    isOptionalString(value['id']) &&
    isOptionalString(value['parent_id']) &&
    (links === undefined || links === null || Array.isArray(links)) &&
    (status === undefined || status === null || Number.isSafeInteger(status))
  );
}

function isHttpStatus(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 100 && (value as number) <= 599;
}

/** A void's mark is the service's to write (schemas/collector.ts SetByVoid): a record carrying one goes to zod, which refuses it. */
const withoutVoidMark = (record: Record<string, unknown>): boolean => record['voided_at'] === undefined && record['void_id'] === undefined;
