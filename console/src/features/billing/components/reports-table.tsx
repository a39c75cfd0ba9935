import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { useFormatTime } from '../../../lib/app-time-zone';
import { useReports, type ReportFilters } from '../api/reports';

export function formatAmount(amountExact: string | null | undefined, currency: string | null | undefined): string {
  if (amountExact === null || amountExact === undefined) return '';
  return `${amountExact} ${(currency ?? '').toUpperCase()}`.trim();
}

/** Billing reports: window, subscription, usage, amount, status; each opens its report. */
export function ReportsTable({ filters }: { filters: ReportFilters }) {
  const format = useFormatTime();
  const reports = useReports(filters);
  const rows = reports.data?.pages.flatMap((page) => page.items) ?? [];
  if (reports.isPending) return <Loading label="Loading billing reports…" />;
  return (
    <section aria-label="Billing reports">
      <ErrorMessage error={reports.error} />
      {rows.length === 0 ? (
        <EmptyState title="No billing reports in this range">
          <p>
            Reports appear once a meter's window closes and the billing run evaluates it (every 5 minutes on AWS, every minute under <code>npm start</code>).
          </p>
        </EmptyState>
      ) : (
        <table className="event-table">
          <thead>
            <tr>
              <th scope="col">Window</th>
              <th scope="col">Subscription</th>
              <th scope="col">Usage</th>
              <th scope="col">Amount</th>
              <th scope="col">Status</th>
              <th scope="col">Period</th>
              <th scope="col">Provider</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((report) => (
              <tr key={report._id}>
                <td>
                  <Link to={`/billing/reports/${encodeURIComponent(report._id)}`}>{format(report.usage_start_time)}</Link>
                </td>
                <td>{report.subscription_id ?? <span className="muted">none ({report.company_id})</span>}</td>
                <td>{report.meter_usage.toLocaleString()}</td>
                <td>{formatAmount(report.amount_exact, report.currency)}</td>
                <td className={report.status === 'failed' ? 'status-5xx' : report.status === 'success' ? 'status-ok' : ''}>{report.status}</td>
                <td>{report.period_status === 'in_grace' ? 'in grace' : (report.period_status ?? '—')}</td>
                <td>{report.provider}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {reports.hasNextPage && (
        <button type="button" onClick={() => void reports.fetchNextPage()} disabled={reports.isFetchingNextPage}>
          {reports.isFetchingNextPage ? 'Loading older reports…' : 'Older reports'}
        </button>
      )}
    </section>
  );
}
