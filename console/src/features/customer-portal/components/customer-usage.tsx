import { Loading } from '../../../components/loading';
import { QueryState } from '../../../components/query-state';
import { EmptyState } from '../../../components/empty-state';
import { useTimeSeriesChart } from '../../../components/use-time-series-chart';
import { ApiError } from '../../../lib/api-error';
import { LinkRefused } from '../../../components/link-refused';
import { useState } from 'react';
import { useCustomerUsage, type CustomerUsage, type StatementRef } from '../api/customer-portal';
import { StatementFileCheck } from './statement-file-check';
import { StatementPanel } from './statement-panel';
import { formatDate, formatMoney, formatNumber, type UsageTheme } from '../utils/usage-theme';
import { SpendCapForm } from './spend-cap-form';

/**
 * One customer's usage page, for an iframe in the API company's product: the bill so far and the
 * estimate for the period, prepaid balances, usage per meter and per day, and the spend cap the
 * customer sets itself. The token in the link is its only credential.
 */
export function CustomerUsageContent({ token, theme }: { token: string; theme: UsageTheme }) {
  const usage = useCustomerUsage(token);
  if (usage.error instanceof ApiError && (usage.error.status === 401 || usage.error.status === 404)) return <LinkRefused error={usage.error} />;
  if (!usage.isSuccess) return <QueryState query={usage} loading="Loading your usage…" />;
  const { subscriptions, meters, totals, invoices } = usage.data;
  const locale = theme.locale;
  return (
    <div className="customer-usage">
      <header className="page-header">
        <div className="customer-brand">
          {theme.logo && <img src={theme.logo} alt="" className="customer-logo" />}
          <h1>{theme.title}</h1>
        </div>
        {subscriptions.map((s) => (
          <span key={s.subscription_id} className="muted">
            {formatDate(s.period.start, locale)} – {formatDate(s.period.end, locale)} ({PERIOD_STATUS[s.period.status]})
          </span>
        ))}
      </header>
      {meters.length === 0 ? (
        <EmptyState title="No usage this period">
          <p>Usage shows here as soon as it is recorded.</p>
        </EmptyState>
      ) : (
        <>
          <section aria-label="Bill" className="bill-summary">
            {totals.map((total) => (
              <dl key={total.currency} className="facts">
                <dt>So far</dt>
                <dd>{formatMoney(total.amount, total.currency, locale)}</dd>
                <dt>Estimated for the period</dt>
                <dd>{formatMoney(total.estimated_amount, total.currency, locale)}</dd>
              </dl>
            ))}
            {subscriptions.map(
              (s) =>
                s.balance && (
                  <dl key={s.subscription_id} className="facts" aria-label={`Prepaid balance of ${s.subscription_id}`}>
                    <dt>Prepaid balance</dt>
                    <dd>{totals[0] ? formatMoney(s.balance.available, totals[0].currency, locale) : s.balance.available}</dd>
                    <dt>Left after this period (estimated)</dt>
                    <dd>{totals[0] ? formatMoney(s.balance.after_estimate, totals[0].currency, locale) : s.balance.after_estimate}</dd>
                  </dl>
                ),
            )}
          </section>
          <MeterTable meters={meters} locale={locale} />
          <DailyUsage meters={meters} />
        </>
      )}
      {invoices.length > 0 && (
        <>
          <PastInvoices invoices={invoices} locale={locale} token={token} />
          <StatementFileCheck />
        </>
      )}
      {totals[0] ? (
        <SpendCapForm token={token} currency={totals[0].currency} locale={locale} />
      ) : (
        <p className="muted">A spend cap can be set once usage is priced.</p>
      )}
    </div>
  );
}

function MeterTable({ meters, locale }: { meters: CustomerUsage['meters']; locale: string | undefined }) {
  const money = (amount: string | null, currency: string | null) => (amount !== null && currency !== null ? formatMoney(amount, currency, locale) : '—');
  return (
    <table className="event-table">
      <caption className="muted">Usage by meter</caption>
      <thead>
        <tr>
          <th scope="col">Meter</th>
          <th scope="col">Usage so far</th>
          <th scope="col">Amount so far</th>
          <th scope="col">Estimated usage</th>
          <th scope="col">Estimated amount</th>
        </tr>
      </thead>
      <tbody>
        {meters.map((meter) => (
          <tr key={`${meter.billing_meter_id}|${meter.subscription_id}`}>
            <td>{meter.name}</td>
            <td>{formatNumber(meter.usage, locale)}</td>
            <td>{money(meter.amount, meter.currency)}</td>
            <td>{formatNumber(meter.estimated_usage, locale)}</td>
            <td>{money(meter.estimated_amount, meter.currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The last closed periods as they were billed. */
/** What a period's status tells the customer: whether its numbers may still move. */
const PERIOD_STATUS = { open: 'open', in_grace: 'ended, waiting for late usage', final: 'final' } as const;

function PastInvoices({ invoices, locale, token }: { invoices: CustomerUsage['invoices']; locale: string | undefined; token: string }) {
  const [chosen, choose] = useState<StatementRef | null>(null);
  return (
    <>
      <table className="event-table">
        <caption className="muted">Past periods, as billed</caption>
        <thead>
          <tr>
            <th scope="col">Period</th>
            <th scope="col">Status</th>
            <th scope="col">Usage</th>
            <th scope="col">Amount</th>
            <th scope="col">Statement</th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((invoice) => (
            <tr key={`${invoice.subscription_id}|${invoice.period_start}`}>
              <td>
                {formatDate(invoice.period_start, locale)} – {formatDate(invoice.period_end, locale)}
              </td>
              <td>
                {PERIOD_STATUS[invoice.status]}
                {invoice.late_corrections > 0
                  ? `; ${formatNumber(invoice.late_corrections, locale)} late correction${invoice.late_corrections === 1 ? '' : 's'} after final`
                  : ''}
              </td>
              <td>
                {invoice.meters
                  .map(
                    (meter) =>
                      `${meter.name}: ${formatNumber(meter.usage, locale)}${meter.late_usage !== 0 ? ` (${meter.late_usage > 0 ? '+' : ''}${formatNumber(meter.late_usage, locale)} late)` : ''}`,
                  )
                  .join(', ')}
              </td>
              <td>{invoice.totals.map((total) => formatMoney(total.amount, total.currency, locale)).join(', ') || '—'}</td>
              <td>
                <button
                  type="button"
                  className="secondary"
                  aria-pressed={chosen?.subscriptionId === invoice.subscription_id && chosen.periodStart === invoice.period_start}
                  onClick={() => choose({ subscriptionId: invoice.subscription_id, periodStart: invoice.period_start })}
                >
                  Statement
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {chosen && <StatementPanel key={`${chosen.subscriptionId}|${chosen.periodStart}`} token={token} statementRef={chosen} locale={locale} />}
    </>
  );
}

function DailyUsage({ meters }: { meters: CustomerUsage['meters'] }) {
  const TimeSeriesChart = useTimeSeriesChart();
  if (!TimeSeriesChart) return <Loading label="Drawing the chart…" />;
  const series = meters.map((meter) => ({
    name: meter.name,
    points: meter.daily.map((day): [number, number | null] => [Date.parse(`${day.date}T00:00:00Z`), day.usage]),
  }));
  return (
    <section aria-label="Daily usage">
      <h2>Daily usage</h2>
      <TimeSeriesChart series={series} label="Usage per day and meter" stacked daily />
    </section>
  );
}
