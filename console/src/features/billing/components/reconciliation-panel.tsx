import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { QueryState } from '../../../components/query-state';
import { formatTime } from '../../../lib/time';
import { useCorrectDrift, useReconcile, useReconciliation, type Reconciliation } from '../api/reconciliation';

type Correction = NonNullable<Reconciliation['corrections']>[number];
type ReconciledProvider = Reconciliation['provider'];
const TITLES: Record<ReconciledProvider, string> = { stripe: 'Stripe', chargebee: 'Chargebee', recurly: 'Recurly', zuora: 'Zuora', webhook: 'the receiver' };
type CorrectDrift = ReturnType<typeof useCorrectDrift>;

/**
 * A Stripe meter's reconciliation: what Stripe holds for each subscription this period against what
 * the billing run reported, checked on demand; the subscriptions that differ, by how much and since
 * when, and those Stripe could not say anything about. Drift is corrected from here, all of it or one
 * subscription's, and the corrections sent are listed.
 */
export function ReconciliationPanel({ meterId, provider }: { meterId: string; provider: ReconciledProvider }) {
  const title = TITLES[provider];
  const last = useReconciliation(meterId);
  const check = useReconcile();
  const correct = useCorrectDrift(meterId);
  // The newest comparison: the stored one, or what the last check or correction answered.
  const shown = [last.data, check.data, correct.data?.reconciliation].reduce<Reconciliation | null | undefined>(
    (newest, candidate) => (candidate && (!newest || candidate.checked_at > newest.checked_at) ? candidate : newest),
    undefined,
  );
  return (
    <section className="tile" aria-label={`Reconciliation with ${title}`}>
      <h2>Reconciliation with {title}</h2>
      <p className="muted">
        Reads back each reported subscription's usage this period from {title} and compares it with what was reported.
        {provider === 'chargebee' ? ` ${title} takes no negative usage: a shortfall is sent as a usage of its own, an excess is left and said so.` : ''}
        {provider === 'webhook' ? ' What the receiver holds is read from its answers to each delivery; what it refused shows as drift.' : ''}
      </p>
      <button type="button" onClick={() => check.mutate(meterId)} disabled={check.isPending}>
        {check.isPending ? 'Checking…' : `Check against ${title} now`}
      </button>
      <ErrorMessage error={check.error ?? correct.error} />
      {correct.data ? <CorrectionSummary corrections={correct.data.corrections} /> : null}
      {!last.isSuccess ? (
        <QueryState query={last} loading="Reading the last reconciliation…" />
      ) : !shown ? (
        <EmptyState title="Not checked yet">
          <p>Nothing has been compared with {title} for this meter.</p>
        </EmptyState>
      ) : (
        <Outcome reconciliation={shown} correct={provider === 'webhook' ? undefined : correct} title={title} />
      )}
    </section>
  );
}

function CorrectionSummary({ corrections }: { corrections: readonly Correction[] }) {
  const failed = corrections.filter((c) => c.outcome === 'failed').length;
  return (
    <p role="status" aria-label="Correction outcome">
      {corrections.length === 0
        ? 'Nothing to correct: no drift was left when Stripe was read again.'
        : `Sent ${(corrections.length - failed).toLocaleString()} correction${corrections.length - failed === 1 ? '' : 's'} to Stripe${failed > 0 ? `; ${failed.toLocaleString()} failed (see below)` : ''}.`}
    </p>
  );
}

/** `correct` where drift can be sent to the provider (not to a webhook receiver). */
function Outcome({ reconciliation, correct, title }: { reconciliation: Reconciliation; correct: CorrectDrift | undefined; title: string }) {
  const { counts } = reconciliation;
  return (
    <>
      <p role="status">
        Checked {formatTime(reconciliation.checked_at)}: <strong>{counts.matched.toLocaleString()} matched</strong>, {counts.drift.toLocaleString()} with drift,{' '}
        {counts.unknown.toLocaleString()} unknown.
      </p>
      {correct && reconciliation.drift.length > 0 ? (
        <button type="button" onClick={() => correct.mutate(undefined)} disabled={correct.isPending}>
          {correct.isPending ? 'Correcting…' : `Correct all drift (${reconciliation.drift.length.toLocaleString()})`}
        </button>
      ) : null}
      {reconciliation.drift.length > 0 ? (
        <table aria-label="Drift">
          <thead>
            <tr>
              <th scope="col">Subscription</th>
              <th scope="col">Customer</th>
              <th scope="col">Period</th>
              <th scope="col">Reported</th>
              <th scope="col">At {title}</th>
              <th scope="col">Difference</th>
              <th scope="col">Since</th>
              {correct ? (
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              ) : null}
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
                {correct ? (
                  <td>
                    <button
                      type="button"
                      onClick={() => correct.mutate([drift.subscription_id])}
                      disabled={correct.isPending}
                      aria-label={`Correct ${drift.subscription_id}`}
                    >
                      Correct
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {reconciliation.corrections && reconciliation.corrections.length > 0 ? <CorrectionsSent corrections={reconciliation.corrections} /> : null}
      {reconciliation.unknown.length > 0 ? (
        <details>
          <summary>What {title} could not say, and why</summary>
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

/** Corrections sent so far: each one a meter event of the difference, with its idempotency key. */
function CorrectionsSent({ corrections }: { corrections: readonly Correction[] }) {
  return (
    <details>
      <summary>Corrections sent ({corrections.length.toLocaleString()})</summary>
      <table aria-label="Corrections sent">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Subscription</th>
            <th scope="col">Period</th>
            <th scope="col">Sent</th>
            <th scope="col">Version</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {corrections.map((c) => (
            <tr key={c.idempotency_key + c.at}>
              <td>{formatTime(c.at)}</td>
              <td>{c.subscription_id}</td>
              <td>{formatTime(c.period_start)}</td>
              <td>{c.sent > 0 ? `+${c.sent.toLocaleString()}` : c.sent.toLocaleString()}</td>
              <td>{c.correction_version}</td>
              <td>{c.outcome === 'failed' ? `failed: ${c.reason ?? ''}` : c.outcome}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
