import { contextOf } from '../../resources/crud-operations';
import type { ResourceOperationTable } from '../../resources/resource-deps';
import type { SearchableIndex } from '../../search/port';
import { withinQueryBudget, type QueryBudgetDeps } from '../../search/query-budget';
import { withQuerySignal } from '../../search/query-signal';
import { NotFoundError } from '../../shared/errors';
import { explainReport } from './report-explain';
import { ReportMetricsParams, reportMetrics } from './report-metrics';
import { listReports, ReportListParams, reportSelection } from './report-query';
import type { ReportStore } from './report-store';
import type { ResourceStore } from '../../resources/resource-store';
import { parseQueryParams } from '../../shared/invalid-input';
import type { BillingReport, BillingReportAnswer } from '../../../schemas/billing/report';
import { periodStatus } from '../../../values/period-status';
import type { RunStateStore } from '../run/run-state-store';

export interface ReportOperationDeps extends QueryBudgetDeps {
  readonly reports: ReportStore;
  /** Where the meters' cursors stand (a report's billing period is final once its meter's cursor has passed it). */
  readonly runState: Pick<RunStateStore, 'cursorPositions'>;
  /** Where the meters are (an explanation re-runs its meter's query). */
  readonly resources: ResourceStore;
  readonly index: SearchableIndex;
  readonly now?: () => Date;
}

const DEFAULT_TAKE = 50;

/**
 * Reading billing reports back: the list (`GET /~/billing/reports`), one report, metrics over them,
 * and the explanation of one report's usage from the events behind it. Reports are written only by
 * the billing run; this API never changes them.
 */
export function reportOperations(deps: ReportOperationDeps): ResourceOperationTable {
  const store = deps.reports;
  const now = deps.now ?? (() => new Date());

  return {
    async 'billingReports.list'(request, caller) {
      const ctx = contextOf(request, caller, now());
      const params = parseQueryParams(ReportListParams, request.query);
      const [page, cursors] = await Promise.all([
        listReports(store, ctx, reportSelection(params, new Date(ctx.now)), params.take ?? DEFAULT_TAKE, params.before_id),
        deps.runState.cursorPositions(ctx),
      ]);
      const headers: Record<string, string> = page.nextBeforeId === undefined ? {} : { 'x-next-before-id': page.nextBeforeId };
      return { status: 200, body: page.reports.map((report) => withPeriodStatus(report, cursors, new Date(ctx.now))), headers };
    },

    async 'billingReports.get'(request, caller) {
      const ctx = contextOf(request, caller, now());
      const [report, cursors] = await Promise.all([store.getReport(ctx, request.pathParams.reportId ?? ''), deps.runState.cursorPositions(ctx)]);
      if (!report) throw new NotFoundError('No such billing report');
      return { status: 200, body: withPeriodStatus(report, cursors, new Date(ctx.now)) };
    },

    async 'billingReports.metrics'(request, caller) {
      const ctx = contextOf(request, caller, now());
      const params = parseQueryParams(ReportMetricsParams, request.query);
      return { status: 200, body: await reportMetrics(store, ctx, params, new Date(ctx.now)) };
    },

    async 'billingReports.explain'(request, caller) {
      const ctx = contextOf(request, caller, now());
      // An explanation re-runs its meter's query: it holds one of the org's query slots, within the time budget.
      const explanation = await withinQueryBudget(deps, ctx.orgId, request.disconnected, (signal) =>
        explainReport({ ...deps, store, index: withQuerySignal(deps.index, signal) }, ctx, request.pathParams.reportId ?? '', new Date(ctx.now)),
      );
      return { status: 200, body: explanation };
    },
  };
}

/** The report as answered: with its billing period's status now. */
function withPeriodStatus(report: BillingReport, cursors: ReadonlyMap<string, Date>, now: Date): BillingReportAnswer {
  const end = report.subscription_period_end;
  return { ...report, period_status: end === null ? null : periodStatus(end, now, cursors.get(report.billing_meter_id)) };
}
