import * as z from 'zod';
import { PROVIDERS } from '../../../schemas/billing/provider-params';
import { DateParameter, TimeZoneName } from '../../../schemas/time-zone';
import { ReportStatus, type BillingReport } from '../../../schemas/billing/report';
import { parseRequestRange } from '../../search/dates/request-range';
import { ValidationError } from '../../shared/errors';
import { parseReportId, reportId, type ReportLocator } from './report-id';
import { reportKeyOf, type ReportStore, type ReportTenant, type WindowReports } from './report-store';

/**
 * Which reports a list or metrics request is about: the window range (`from`, `to`, `time_zone`)
 * and the original service's filters. Unknown query parameters are refused (400 naming them): a
 * misspelt filter would otherwise silently answer every report.
 */

const Id = z.string().min(1).max(256);
const Bool = z.enum(['true', 'false'], { error: 'must be true or false' });
const STATUS_NAMES = ReportStatus.options.join('|');
/** Comma-separated statuses: `status=failed,retrying`. */
const Statuses = z
  .string()
  .transform((text, ctx) => {
    const values = text
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean);
    const bad = values.filter((value) => !ReportStatus.safeParse(value).success);
    if (values.length === 0 || bad.length > 0) {
      ctx.addIssue({ code: 'custom', message: `must be one or more of ${ReportStatus.options.join(', ')} (comma-separated)` });
      return z.NEVER;
    }
    return new Set(values);
  })
  .meta({ pattern: `^(${STATUS_NAMES})(,(${STATUS_NAMES}))*$` });

export const ReportFilterParams = z.object({
  from: DateParameter.optional(),
  to: DateParameter.optional(),
  time_zone: TimeZoneName.optional(),
  billing_meter_id: Id.optional(),
  company_id: Id.optional(),
  subscription_id: Id.optional(),
  provider: z.enum(PROVIDERS, { error: `must be one of ${PROVIDERS.join(', ')}` }).optional(),
  success: Bool.optional(),
  status: Statuses.optional(),
  type: z.enum(['usage'], { error: 'must be usage (the only report type)' }).optional(),
});

export const ReportListParams = z.strictObject({
  ...ReportFilterParams.shape,
  take: z
    .string()
    .regex(/^\d{1,4}$/, 'must be an integer from 1 to 1000')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1000, 'must be an integer from 1 to 1000')
    .optional()
    .meta({ type: 'integer', minimum: 1, maximum: 1000 }),
  /** The `x-next-before-id` of the previous page (a report id): the list continues after it. */
  before_id: z.string().max(2000).optional(),
});

export interface ReportSelection {
  readonly from: Date;
  readonly to: Date;
  readonly timeZone: string;
  readonly meterId?: string;
  readonly matches: (report: BillingReport) => boolean;
}

/**
 * The selection of reports: windows overlapping [from, to) (default: from the beginning to now;
 * relative and zoned dates as in search) and equality filters.
 */
export function reportSelection(params: z.output<typeof ReportFilterParams>, now: Date): ReportSelection {
  const range = parseRequestRange(
    {
      ...(params.from !== undefined ? { from: params.from } : {}),
      ...(params.to !== undefined ? { to: params.to } : {}),
      ...(params.time_zone !== undefined ? { time_zone: params.time_zone } : {}),
    },
    now,
  );
  const from = range.from ?? new Date(0);
  const to = range.to ?? now;
  if (from.getTime() > to.getTime())
    throw new ValidationError('from must not be after to', [{ field: 'from', reason: `${from.toISOString()} is after to (${to.toISOString()})` }]);
  const success = params.success === undefined ? undefined : params.success === 'true';
  return {
    from,
    to,
    timeZone: range.timeZone,
    ...(params.billing_meter_id !== undefined ? { meterId: params.billing_meter_id } : {}),
    matches: (report) =>
      (params.billing_meter_id === undefined || report.billing_meter_id === params.billing_meter_id) &&
      (params.company_id === undefined || report.company_id === params.company_id) &&
      (params.subscription_id === undefined || report.subscription_id === params.subscription_id) &&
      (params.provider === undefined || report.provider === params.provider) &&
      (success === undefined || report.success === success) &&
      (params.status === undefined || params.status.has(report.status)) &&
      (params.type === undefined || report.type === params.type),
  };
}

/** Groups read per page at most: a page of a sparse filter may come back short, with a next position. */
const MAX_GROUPS_PER_PAGE = 200;
/** Groups per store read: few at first (an unfiltered page is usually full after one group), more while a filter finds little. */
const FIRST_READ_GROUPS = 2;
const MAX_READ_GROUPS = 32;
/** A report key after every real key of a group: the position "after this whole group". */
const AFTER_GROUP_KEY = 'S:\uffff';

export interface ReportPage {
  readonly reports: BillingReport[];
  /** The position to continue from (`before_id` of the next request), when more may follow. */
  readonly nextBeforeId?: string;
}

/**
 * One page of reports, in a stable order: newest window first; for one window start, meters in the
 * store's descending key order; inside a (meter, window) group, by report key (subscription or
 * company). `beforeId` is a report id (or a position this function returned) and the page continues
 * strictly after it, so reports committed meanwhile to other windows never shift a page.
 */
export async function listReports(
  store: Pick<ReportStore, 'listWindows'>,
  tenant: ReportTenant,
  selection: ReportSelection,
  take: number,
  beforeId?: string,
): Promise<ReportPage> {
  let position: ReportLocator | undefined;
  if (beforeId !== undefined) {
    position = parseReportId(beforeId);
    if (!position)
      throw new ValidationError('before_id is not a report id', [{ field: 'before_id', reason: 'is not a report id or a position a previous page returned' }]);
  }
  // Windows starting after the position's window were on earlier pages.
  const to = position && position.windowStart.getTime() + 1 < selection.to.getTime() ? new Date(position.windowStart.getTime() + 1) : selection.to;
  const found: BillingReport[] = [];
  let cursor: string | undefined;
  let scanned = 0;
  let readSize = FIRST_READ_GROUPS;
  do {
    const page = await store.listWindows(tenant, {
      from: selection.from,
      to,
      ...(selection.meterId !== undefined ? { meterId: selection.meterId } : {}),
      newestFirst: true,
      maxWindows: readSize,
      ...(cursor ? { cursor } : {}),
    });
    readSize = Math.min(MAX_READ_GROUPS, readSize * 2);
    for (const group of page.windows) {
      const after = afterKey(group, position);
      if (after === null) continue;
      for (const report of group.reports) {
        if (after !== undefined && !(reportKeyOf(report) > after)) continue;
        if (!selection.matches(report)) continue;
        found.push(report);
        if (found.length > take) return { reports: found.slice(0, take), nextBeforeId: found[take - 1]!._id };
      }
      scanned += 1;
      if (scanned >= MAX_GROUPS_PER_PAGE) {
        const more = page.cursor !== undefined || page.windows.indexOf(group) < page.windows.length - 1;
        if (!more) return { reports: found };
        return { reports: found, nextBeforeId: reportId({ windowStart: group.window.start, meterId: group.meterId, reportKey: AFTER_GROUP_KEY }) };
      }
    }
    cursor = page.cursor;
  } while (cursor);
  return { reports: found };
}

/**
 * Where a group's reports continue after the position: undefined = the whole group, null = none of
 * it (it came before the position), else only keys greater than the returned key.
 */
function afterKey(group: WindowReports, position: ReportLocator | undefined): string | undefined | null {
  if (!position || group.window.start.getTime() !== position.windowStart.getTime()) return undefined;
  const mine = `${encodeURIComponent(group.meterId)}#`;
  const theirs = `${encodeURIComponent(position.meterId)}#`;
  // Same window start: groups sort by encoded meter id, descending (as the store's sort keys do).
  if (mine > theirs) return null;
  return mine === theirs ? position.reportKey : undefined;
}
