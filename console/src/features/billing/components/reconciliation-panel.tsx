import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { QueryState } from '../../../components/query-state';
import { formatTime } from '../../../lib/time';
import { useReconcile, useReconciliation, type Reconciliation } from '../api/reconciliation';

/**
 * A Stripe meter's reconciliation: what Stripe holds for each subscription this period against what
 * the billing run reported, checked on demand; the subscriptions that differ, by how much and since
 * when, and those Stripe could not say anything about.
 */
export function ReconciliationPanel({ meterId }: { meterId: string }) {
  const last = useReconciliation(meterId);
  const check = useReconcile();
  const shown = check.data ?? last.data;
  return (
    <section className="tile" aria-label="Reconciliation with Stripe">
      <h2>Reconciliation with Stripe</h2>
      <p className="muted">Reads back each reported subscription's usage this period from Stripe and compares it with what was reported.</p>
      <button type="button" onClick={() => check.mutate(meterId)} disabled={check.isPending}>
        {check.isPending ? 'Checking…' : 'Check against Stripe now'}
      </button>
      <ErrorMessage error={check.error} />
      {!last.isSuccess ? (
        <QueryState query={last} loading="Reading the last reconciliation…" />
      ) : !shown ? (
        <EmptyState title="Not checked yet">
          <p>Nothing has been compared with Stripe for this meter.</p>
        </EmptyState>
      ) : (
        <Outcome reconciliation={shown} />
      )}
    </section>
  );
}

function Outcome({ reconciliation }: { reconciliation: Reconciliation }) {
  const { counts } = reconciliation;
  return (
    <>
      <p role="status">
        Checked {formatTime(reconciliation.checked_at)}: <strong>{counts.matched.toLocaleString()} matched</strong>, {counts.drift.toLocaleString()} with drift,{' '}
        {counts.unknown.toLocaleString()} unknown.
      </p>
      {reconciliation.drift.length > 0 ? (
        <table aria-label="Drift">
          <thead>
            <tr>
              <th scope="col">Subscription</th>
              <th scope="col">Customer</th>
              <th scope="col">Period</th>
              <th scope="col">Reported</th>
              <th scope="col">At Stripe</th>
              <th scope="col">Difference</th>
              <th scope="col">Since</th>
            </tr>
          </thead>
          <tbody>
            {reconciliation.drift.map((drift) => (
              <tr key={`${drift.subscription_id}:${drift.period_start}`}>
                <td>{drift.subscription_id}</td>
                <td>{drift.customer}</td>
                <td>
                  {formatTime(drift.period_start)} – {formatTime(drift.period_end)}
                </td>
                <td>{drift.reported.toLocaleString()}</td>
                <td>{drift.provider.toLocaleString()}</td>
                <td>{drift.difference > 0 ? `+${drift.difference.toLocaleString()}` : drift.difference.toLocaleString()}</td>
                <td>{formatTime(drift.since)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {reconciliation.unknown.length > 0 ? (
        <details>
          <summary>What Stripe could not say, and why</summary>
          <ul aria-label="Unknown">
            {reconciliation.unknown.map((entry) => (
              <li key={entry.subscription_id}>
                <code>{entry.subscription_id}</code>: {entry.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}
