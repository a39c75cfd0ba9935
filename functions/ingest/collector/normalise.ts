import { randomUUID } from 'node:crypto';
import type * as z from 'zod';
import { ActionEvent, ApiCallEvent, CompanyProfile, Subscription, UserProfile } from '../../../schemas/collector';
import { parseDateTime } from '../../../values/iso-date-time';
import type { RecordKind, StreamItem } from '../../../schemas/stream-record';
import { PayloadTooLargeError, ValidationError, type FieldIssue } from '../../shared/errors';
import { callerIp, sessionTokenFromHeaders } from './caller-context';
import { fastActionEvent, fastApiCallEvent } from './fast-path';
import { REQUIRED_WHEN_MISSING, fieldIssuesOf } from '../../shared/invalid-input';
import { IssueList, fieldIssue } from './field-issues';
import { indexShapeProblem } from './index-shape';
import { fitItemSize } from './size-limit';

/**
 * Turns a decoded collector body into stream items: validates every item, fills in what the
 * collector owns (ids, times, caller IP, session token, defaults) and enforces the per-event rules
 * of the spec (age window, late marking, 1 MB with body truncation) and what the index can map
 * (nesting depth, field count). All or nothing: one bad item
 * rejects the whole body with one error listing every problem found.
 *
 * Ids are generated here, before the stream, so a stream retry of the same record keeps them.
 */

export interface NormaliseContext {
  receivedAt: Date;
  /** The TCP peer as API Gateway saw it. */
  sourceIp: string;
  /** The X-Forwarded-For header of the collector request, when a proxy set one. */
  forwardedFor?: string;
  /** The app accepts events older than the 30-day window. */
  backfillEnabled: boolean;
}

/** Events older than this, measured from reception, are refused unless the app has backfill enabled. */
export const MAX_EVENT_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** Events older than this when received are marked `late` (alerting and billing may have run already). */
export const LATE_AFTER_MS = 5 * 60 * 1000;
/**
 * Events dated further ahead than this are refused: a day covers any time zone mistake of a
 * sender that writes local time without an offset, while a clock years off is caught.
 */
export const MAX_FUTURE_SKEW_MS = 24 * 60 * 60 * 1000;

interface Reception {
  receivedAtMs: number;
  receivedAtIso: string;
  callerIp: string | undefined;
  backfillEnabled: boolean;
}

/** Builds the item of one valid record; pushes problems to `issues` and returns undefined instead. */
type ItemBuilder<T> = (record: T, reception: Reception, index: number | undefined, issues: FieldIssue[]) => StreamItem | undefined;

interface KindRules {
  noun: string;
  /** API calls over 1 MB are kept with truncated bodies; other records have no bodies to cut. */
  truncateBodies: boolean;
  /** Validates one record and builds its item, or pushes its problems and returns undefined. */
  toItem(record: unknown, reception: Reception, index: number | undefined, issues: FieldIssue[]): StreamItem | undefined;
}

/**
 * `fast` recognises valid records of the common shape without zod (see fast-path.ts); everything
 * else, and every invalid record, is parsed by the schema.
 */
function rules<T>(
  noun: string,
  schema: z.ZodType<T>,
  build: ItemBuilder<T>,
  options: { truncateBodies: boolean; fast?: (record: unknown) => T | undefined },
): KindRules {
  const fast = options.fast;
  return {
    noun,
    truncateBodies: options.truncateBodies,
    toItem(record, reception, index, issues) {
      const accepted = fast?.(record);
      if (accepted !== undefined) return build(accepted, reception, index, issues);
      const parsed = schema.safeParse(record, REQUIRED_WHEN_MISSING);
      if (parsed.success) return build(parsed.data, reception, index, issues);
      issues.push(...fieldIssuesOf(parsed.error.issues, { index, root: index === undefined ? 'body' : 'item' }));
      return undefined;
    },
  };
}

const eventItem: ItemBuilder<ApiCallEvent> = (event, reception, index, issues) => {
  const request = event.request;
  // request.time is normalised by now, so it parses.
  const late = checkEventTime(parseDateTime(request.time)!, reception, index, issues);
  if (late === undefined) return undefined;
  if (!request.ip_address && reception.callerIp) request.ip_address = reception.callerIp;
  if (!event.session_token) {
    const token = sessionTokenFromHeaders(request.headers);
    if (token) event.session_token = token;
  }
  return { id: event.transaction_id || randomUUID(), time: request.time, received_at: reception.receivedAtIso, late, data: event };
};

const actionItem: ItemBuilder<ActionEvent> = (action, reception, index, issues) => {
  const request = action.request;
  let late = false;
  if (request.time) {
    const checked = checkEventTime(parseDateTime(request.time)!, reception, index, issues);
    if (checked === undefined) return undefined;
    late = checked;
  } else {
    request.time = reception.receivedAtIso;
  }
  if (!request.ip_address && reception.callerIp) request.ip_address = reception.callerIp;
  return { id: action.transaction_id || randomUUID(), time: request.time, received_at: reception.receivedAtIso, late, data: action };
};

/**
 * Profiles are stamped with the reception time; their id is the profile's own id (an anonymous
 * visitor's, without a user_id, is its anonymous_id: the consumer keeps visitors apart from users).
 */
function profileItem<T extends Record<string, unknown>>(idField: keyof T & string, fallbackIdField?: keyof T & string): ItemBuilder<T> {
  return (profile, reception) => ({
    id: (profile[idField] ?? profile[fallbackIdField ?? idField]) as string,
    time: reception.receivedAtIso,
    received_at: reception.receivedAtIso,
    data: profile,
  });
}

const RULES: Readonly<Record<RecordKind, KindRules>> = {
  event: rules('API call', ApiCallEvent, eventItem, { truncateBodies: true, fast: fastApiCallEvent }),
  action: rules('action', ActionEvent, actionItem, { truncateBodies: false, fast: fastActionEvent }),
  user: rules('user profile', UserProfile, profileItem<UserProfile>('user_id', 'anonymous_id'), { truncateBodies: false }),
  company: rules('company profile', CompanyProfile, profileItem<CompanyProfile>('company_id'), { truncateBodies: false }),
  subscription: rules('subscription', Subscription, profileItem<Subscription>('subscription_id'), { truncateBodies: false }),
};

export function normaliseItems(kind: RecordKind, body: unknown, options: { batch: boolean }, ctx: NormaliseContext): StreamItem[] {
  const rule = RULES[kind];
  const records = options.batch ? asBatch(body, rule.noun) : [asSingle(body, rule.noun)];
  const reception: Reception = {
    receivedAtMs: ctx.receivedAt.getTime(),
    receivedAtIso: ctx.receivedAt.toISOString(),
    callerIp: callerIp(ctx.sourceIp, ctx.forwardedFor),
    backfillEnabled: ctx.backfillEnabled,
  };

  const invalid = new IssueList();
  const tooLarge = new IssueList();
  const items: StreamItem[] = new Array(records.length);
  const issues: FieldIssue[] = [];
  for (let i = 0; i < records.length; i++) {
    const index = options.batch ? i : undefined;
    const item = rule.toItem(records[i], reception, index, issues);
    if (!item) {
      invalid.add(issues.splice(0));
      continue;
    }
    // Size only while the body can still be accepted: a 400 would throw the work away.
    if (invalid.badItems === 0) {
      const problem = indexShapeProblem(item.data) ?? fitItemSize(item, rule.truncateBodies);
      if (problem?.status === 400) invalid.add([fieldIssue(index, problem.field, problem.reason)]);
      else if (problem) tooLarge.add([fieldIssue(index, problem.field, problem.reason)]);
    }
    items[i] = item;
  }

  if (invalid.badItems > 0) throw new ValidationError(invalidMessage(invalid, records.length, rule.noun, options.batch), invalid.listed);
  if (tooLarge.badItems > 0) {
    const subject = options.batch ? `${tooLarge.badItems} of ${records.length} items are` : `The ${rule.noun} is`;
    throw new PayloadTooLargeError(`${subject} larger than 1 MB even after truncation; nothing was accepted${cappedNote(tooLarge)}`, tooLarge.listed);
  }
  return items;
}

/**
 * A batch body is a JSON array. An empty array is accepted and yields no items (a 201 no-op):
 * SDK batchers may flush an empty queue, and refusing it would only make them log errors.
 */
function asBatch(body: unknown, noun: string): unknown[] {
  if (Array.isArray(body)) return body;
  throw new ValidationError(`A batch endpoint takes a JSON array of ${noun}s`, [
    { field: 'body', reason: `expected a JSON array, received ${describe(body)}` },
  ]);
}

function asSingle(body: unknown, noun: string): unknown {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body;
  const hint = Array.isArray(body) ? '; send arrays to the /batch endpoint' : '';
  throw new ValidationError(`This endpoint takes one ${noun} as a JSON object${hint}`, [
    { field: 'body', reason: `expected a JSON object, received ${describe(body)}` },
  ]);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * The age rules of events and actions. Returns whether the event is late, or undefined (with an
 * issue pushed) when it falls outside the accepted window.
 */
function checkEventTime(timeMs: number, reception: Reception, index: number | undefined, issues: FieldIssue[]): boolean | undefined {
  const age = reception.receivedAtMs - timeMs;
  if (age > MAX_EVENT_AGE_MS && !reception.backfillEnabled) {
    issues.push(
      fieldIssue(
        index,
        'request.time',
        `is more than 30 days before the collector received it (${reception.receivedAtIso}); older events are accepted only when backfill is enabled for the app`,
      ),
    );
    return undefined;
  }
  if (age < -MAX_FUTURE_SKEW_MS) {
    issues.push(
      fieldIssue(
        index,
        'request.time',
        `is more than 24 hours after the collector received it (${reception.receivedAtIso}); check the sender's clock and time zone`,
      ),
    );
    return undefined;
  }
  return age > LATE_AFTER_MS;
}

function invalidMessage(issues: IssueList, count: number, noun: string, batch: boolean): string {
  const subject = batch ? `${issues.badItems} of ${count} items in the batch are invalid` : `The ${noun} is invalid`;
  return `${subject}; nothing was accepted${cappedNote(issues)}`;
}

function cappedNote(issues: IssueList): string {
  return issues.capped ? ` (the first ${issues.listed.length} of ${issues.total} problems are listed)` : '';
}
