import { Link, useNavigate, useParams } from 'react-router';
import { ErrorMessage } from '../../components/error-message';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/query-state';
import { useAlert, useDeleteAlert, useEvaluateAlert } from '../../features/alerts/api/alerts';
import { AlertEditor } from '../../features/alerts/components/alert-editor';
import { AlertHistory } from '../../features/alerts/components/alert-history';
import { AlertsList } from '../../features/alerts/components/alerts-list';

export function AlertsPage() {
  return (
    <>
      <PageHeader title="Alerts">
        <Link to="/alerts/new">New alert</Link>
      </PageHeader>
      <AlertsList />
    </>
  );
}

export function NewAlertPage() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="New alert">
        <Link to="/alerts">All alerts</Link>
      </PageHeader>
      <AlertEditor onSaved={() => void navigate('/alerts')} />
    </>
  );
}

/** An alert: run it now, its history, and its fields with the metric charted against the threshold. */
export function AlertPage() {
  const { alertId = '' } = useParams();
  const alert = useAlert(alertId);
  const remove = useDeleteAlert();
  const evaluate = useEvaluateAlert(alertId);
  const navigate = useNavigate();
  if (!alert.isSuccess) return <QueryState query={alert} loading="Loading the alert…" />;
  const deleteAlert = () => {
    if (window.confirm(`Delete the alert ${alert.data.name}? Its history goes with it.`)) remove.mutate(alertId, { onSuccess: () => void navigate('/alerts') });
  };
  const result = evaluate.data;
  return (
    <>
      <PageHeader title={alert.data.name}>
        <Link to="/alerts">All alerts</Link>{' '}
        <button type="button" onClick={() => evaluate.mutate()} disabled={evaluate.isPending}>
          Run now
        </button>{' '}
        <button type="button" className="secondary" onClick={deleteAlert}>
          Delete alert
        </button>
      </PageHeader>
      <ErrorMessage error={remove.error ?? evaluate.error} />
      {result && (
        <p role="status">
          Evaluated now: {result.fired} fired, {result.resolved} resolved, {result.delivered} messages sent
          {result.series.length > 0 &&
            `; ${result.series
              .slice(0, 5)
              .map((s) => `${s.series === '*' ? 'all events' : s.series} ${s.value ?? 'no value'}${s.threshold === null ? '' : ` (threshold ${s.threshold})`}`)
              .join(', ')}`}
          .
        </p>
      )}
      <h2>History</h2>
      <AlertHistory alertId={alertId} />
      <h2>Settings</h2>
      <AlertEditor alert={alert.data} onSaved={() => void navigate('/alerts')} />
    </>
  );
}
