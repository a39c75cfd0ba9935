/**
 * Report ids and the key that names a report inside its (meter, window) group.
 *
 * A report is (meter, subscription-or-company, window). Its `_id` encodes exactly that — base64url of
 * `<window start ms>\u001f<meter id>\u001f<report key>` — so a lookup by id is one Query of the
 * window's shards, with no secondary index. The report key is `S:<subscription_id>` for attributed
 * usage and `C:<company_id>` for unattributed usage of a company.
 */

export interface ReportLocator {
  readonly windowStart: Date;
  readonly meterId: string;
  readonly reportKey: string;
}

const SEPARATOR = '\u001f';

export const subscriptionReportKey = (subscriptionId: string) => `S:${subscriptionId}`;
export const companyReportKey = (companyId: string) => `C:${companyId}`;

export function reportId(locator: ReportLocator): string {
  return Buffer.from([String(locator.windowStart.getTime()), locator.meterId, locator.reportKey].join(SEPARATOR), 'utf8').toString('base64url');
}

/** The locator of an id, or undefined when the text is not a report id (callers answer 404). */
export function parseReportId(id: string): ReportLocator | undefined {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(id)) return undefined;
  const parts = Buffer.from(id, 'base64url').toString('utf8').split(SEPARATOR);
  if (parts.length !== 3) return undefined;
  const [ms, meterId, reportKey] = parts as [string, string, string];
  if (!/^\d{1,15}$/.test(ms) || meterId === '' || !/^[SC]:./.test(reportKey)) return undefined;
  return { windowStart: new Date(Number(ms)), meterId, reportKey };
}
