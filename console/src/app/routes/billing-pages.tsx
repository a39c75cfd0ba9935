import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { ChannelsManager } from '../../features/billing/components/channels-manager';
import { BillingMetricsChart } from '../../features/billing/components/billing-metrics-chart';
import { LedgerTable } from '../../features/billing/components/ledger-table';
import { MeterEditor } from '../../features/billing/components/meter-editor';
import { PlansCatalog } from '../../features/billing/components/plans-catalog';
import { ProviderSyncPanel } from '../../features/billing/components/provider-sync-panel';
import { PriceSimulationPanel } from '../../features/billing/components/price-simulation-panel';
import { PlanChangePreviewPanel } from '../../features/billing/components/plan-change-preview-panel';
import { ReconciliationPanel } from '../../features/billing/components/reconciliation-panel';
import { CompletenessPanel } from '../../features/billing/components/completeness-panel';
import { MeterName } from '../../features/billing/components/meter-name';
import { MetersList } from '../../features/billing/components/meters-list';
import { useMeter } from '../../features/billing/api/meters';
import { ReportDetail } from '../../features/billing/components/report-detail';
import { ReportsTable } from '../../features/billing/components/reports-table';
import { RangeSelect } from '../../components/range-select';
import { QueryState } from '../../components/query-state';

export function BillingMetersPage() {
  return (
    <>
      <PageHeader title="Billing meters">
        <Link to="/billing/meters/new">New meter</Link> <Link to="/billing/catalog">Plans and prices</Link> <Link to="/billing/channels">Webhook channels</Link>{' '}
        <Link to="/billing/reports">All reports</Link>
      </PageHeader>
      <MetersList />
    </>
  );
}

const STATUSES = ['pending', 'success', 'retrying', 'failed', 'unattributed'];

/** Reports, filtered by meter, status and range (all in the URL). */
export function BillingReportsPage() {
  const [params, setParams] = useSearchParams();
  const from = params.get('from') ?? '-7d';
  const meterId = params.get('meter') ?? undefined;
  const status = params.get('status') ?? undefined;
  const subscriptionId = params.get('subscription') ?? undefined;
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  };
  return (
    <>
      <PageHeader title="Billing reports">
        <Link to="/billing/meters">Meters</Link>
      </PageHeader>
      <form className="filter-bar" aria-label="Report filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Time range
          <RangeSelect value={from} onChange={(next) => set('from', next)} />
        </label>
        <label>
          Status
          <select name="status" value={status ?? ''} onChange={(e) => set('status', e.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        {meterId && (
          <p>
            Meter <MeterName id={meterId} />{' '}
            <button type="button" onClick={() => set('meter', '')}>
              All meters
            </button>
          </p>
        )}
        {subscriptionId && (
          <p>
            Subscription <code>{subscriptionId}</code>{' '}
            <button type="button" onClick={() => set('subscription', '')}>
              All subscriptions
            </button>
          </p>
        )}
      </form>
      <section aria-label="Billing metrics">
        <h2>Billed usage and amounts per day</h2>
        <BillingMetricsChart from={from} interval="1d" {...(meterId ? { meterId } : {})} />
      </section>
      <ReportsTable filters={{ from, ...(meterId ? { meterId } : {}), ...(status ? { status } : {}), ...(subscriptionId ? { subscriptionId } : {}) }} />
    </>
  );
}

export function BillingReportPage() {
  const { reportId = '' } = useParams();
  return (
    <>
      <PageHeader title="Billing report">
        <Link to="/billing/reports">All reports</Link>
      </PageHeader>
      <ReportDetail reportId={reportId} />
    </>
  );
}

/** A subscription's credit balance ledger. */
export function SubscriptionLedgerPage() {
  const { subscriptionId = '' } = useParams();
  return (
    <>
      <PageHeader title={`Balance ledger of ${subscriptionId}`}>
        <Link to={`/billing/reports?subscription=${encodeURIComponent(subscriptionId)}`}>Its reports</Link>
      </PageHeader>
      <LedgerTable subscriptionId={subscriptionId} />
      <PlanChangePreviewPanel subscriptionId={subscriptionId} />
    </>
  );
}

export function NewMeterPage() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="New billing meter">
        <Link to="/billing/meters">Meters</Link>
      </PageHeader>
      <MeterEditor onSaved={() => void navigate('/billing/meters')} />
    </>
  );
}

export function MeterPage() {
  const { meterId = '' } = useParams();
  const meter = useMeter(meterId);
  const navigate = useNavigate();
  if (!meter.isSuccess) return <QueryState query={meter} loading="Loading the meter…" />;
  return (
    <>
      <PageHeader title={meter.data.name}>
        <Link to={`/billing/reports?meter=${encodeURIComponent(meterId)}`}>Its reports</Link>
      </PageHeader>
      <MeterEditor meter={meter.data} onSaved={() => void navigate('/billing/meters')} />
      <CompletenessPanel meterId={meterId} />
      <ReconciliationPanel meterId={meterId} provider={meter.data.billing_plan.provider_slug} />
      <PriceSimulationPanel meterId={meterId} />
    </>
  );
}

export function ChannelsPage() {
  return (
    <>
      <PageHeader title="Webhook channels">
        <Link to="/billing/meters">Meters</Link>
      </PageHeader>
      <ChannelsManager />
    </>
  );
}

export function CatalogPage({ managementUrl }: { managementUrl: string }) {
  return (
    <>
      <PageHeader title="Plans and prices">
        <Link to="/billing/meters">Meters</Link>
      </PageHeader>
      <ProviderSyncPanel managementUrl={managementUrl} />
      <PlansCatalog />
    </>
  );
}
