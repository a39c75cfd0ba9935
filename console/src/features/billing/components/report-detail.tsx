import { useState } from 'react';
import { Link } from 'react-router';
import { useFormatTime } from '../../../lib/app-time-zone';
import { useReport } from '../api/reports';
import { amountExplanation } from '../utils/amount-explanation';
import { MeterName } from './meter-name';
import { ReportExplanationView } from './report-explanation';
import { formatAmount } from './reports-table';
import { QueryState } from '../../../components/query-state';

/** What a billing period's status means to someone reading a report. */
const PERIOD_STATUS = {
  open: 'open (still running)',
  in_grace: 'in grace (ended; its last windows wait for late events)',
  final: 'final (every window reported; later events come as corrections)',
} as const;

/** One billing report: what was billed for which window, its versions, and every request sent for it. */
export function ReportDetail({ reportId }: { reportId: string }) {
  const format = useFormatTime();
  const report = useReport(reportId);
  const [explaining, setExplaining] = useState(false);
  if (!report.isSuccess) return <QueryState query={report} loading="Loading the report…" />;
  const r = report.data;
  const explanation = amountExplanation(r);
  return (
    <article aria-label="Billing report">
      <dl className="facts">
        <dt>Window</dt>
        <dd>
          {format(r.usage_start_time)} – {format(r.usage_end_time)}
        </dd>
        <dt>Meter</dt>
        <dd>
          <Link to={`/billing/reports?meter=${encodeURIComponent(r.billing_meter_id)}`}>
            <MeterName id={r.billing_meter_id} />
          </Link>
        </dd>
        <dt>Subscription</dt>
        <dd>{r.subscription_id ?? 'none'}</dd>
        <dt>Company</dt>
        <dd>{r.company_id ? <Link to={`/companies/${encodeURIComponent(r.company_id)}`}>{r.company_id}</Link> : 'none'}</dd>
        <dt>Usage</dt>
        <dd>
          {r.meter_usage.toLocaleString()} {r.meter_metric_exact !== undefined && <span className="muted">(metric {r.meter_metric_exact})</span>}
        </dd>
        <dt>Amount</dt>
        <dd>
          {formatAmount(r.amount_exact, r.currency) || '—'}
          {explanation && <p className="muted">{explanation}</p>}
        </dd>
        <dt>Status</dt>
        <dd>
          {r.status}
          {r.error_code ? ` (${r.error_code}: ${r.error_message ?? ''})` : ''}
        </dd>
        <dt>Provider</dt>
        <dd>{r.provider}</dd>
        <dt>Billing period</dt>
        <dd>
          {r.subscription_period_start && r.subscription_period_end ? (
            <>
              {format(r.subscription_period_start)} – {format(r.subscription_period_end)}: {PERIOD_STATUS[r.period_status ?? 'open']}
            </>
          ) : (
            'none (unattributed)'
          )}
        </dd>
        <dt>Version</dt>
        <dd>
          {r.report_version}
          {r.delivery_runs !== undefined ? `, sent in ${r.delivery_runs} run(s)` : ''}
        </dd>
      </dl>
      {(r.versions ?? []).length > 1 && (
        <section aria-label="Versions">
          <h2>Versions</h2>
          <table className="event-table">
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Usage</th>
                <th scope="col">Change</th>
                <th scope="col">Why</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {(r.versions ?? []).map((v) => (
                <tr key={v.report_version}>
                  <td>{v.report_version}</td>
                  <td>{v.meter_usage}</td>
                  <td>{v.delta > 0 ? `+${v.delta}` : v.delta}</td>
                  <td>{v.report_version === 1 ? 'first report' : v.after_final ? 'late events after the period was final' : 'late events'}</td>
                  <td>{format(v.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <section aria-label="Provider requests">
        <h2>Requests sent</h2>
        {r.provider_requests.length === 0 ? (
          <p className="muted">Nothing sent yet.</p>
        ) : (
          <table className="event-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Outcome</th>
                <th scope="col">HTTP status</th>
                <th scope="col">Error</th>
                <th scope="col">Idempotency key</th>
              </tr>
            </thead>
            <tbody>
              {r.provider_requests.map((request, i) => (
                <tr key={`${request.request_time}-${i}`}>
                  <td>{format(request.request_time)}</td>
                  <td className={request.success ? 'status-ok' : 'status-5xx'}>{request.success ? 'accepted' : 'refused or failed'}</td>
                  <td>{request.status_code === 0 ? 'no answer' : request.status_code}</td>
                  <td>{request.error_code ? `${request.error_code}: ${request.error_message ?? ''}` : ''}</td>
                  <td>
                    <code>{request.job_id}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-label="Explanation">
        <h2>Where the number comes from</h2>
        {explaining ? (
          <ReportExplanationView reportId={reportId} />
        ) : (
          <button type="button" onClick={() => setExplaining(true)}>
            Explain this report
          </button>
        )}
      </section>
    </article>
  );
}
