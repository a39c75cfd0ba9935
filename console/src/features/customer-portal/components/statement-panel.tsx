import { useState } from 'react';
import { QueryState } from '../../../components/query-state';
import { downloadText } from '../../../lib/csv';
import { useStatement, useStatementEvents, useVerifyStatement, type CustomerStatement, type StatementRef } from '../api/customer-portal';
import { sha256Hex } from '../utils/sha256';
import { formatDate, formatMoney, formatNumber } from '../utils/usage-theme';
import { VerificationResult } from './verification-result';

const fileStem = (statement: CustomerStatement) => `statement-${statement.subscription_id}-${statement.period.start.slice(0, 10)}-v${statement.version}`;

/**
 * A closed period's signed statement on the usage page: what it bills per meter, what changed since
 * the version before, the statement and each meter's events to download, and a check (the
 * signature, whether it is still current, and the downloaded lists against their signed digests).
 */
export function StatementPanel({ token, statementRef, locale }: { token: string; statementRef: StatementRef; locale: string | undefined }) {
  const [version, setVersion] = useState<number | undefined>(undefined);
  const statement = useStatement(token, statementRef, version);
  // The current version (the same query while no earlier one is chosen): the versions to choose from.
  const latest = useStatement(token, statementRef);
  const eventsOf = useStatementEvents(token, statementRef);
  const verify = useVerifyStatement();
  const [downloading, setDownloading] = useState<string | null>(null);
  if (!statement.isSuccess) return <QueryState query={statement} loading="Preparing the statement…" />;
  const shown = statement.data;
  const newest = latest.data?.version ?? shown.version;
  // Only the current version's lists can be downloaded: an earlier one is checked by its signature alone.
  const current = version === undefined;
  const listed = current ? shown.meters.filter((meter) => meter.events_digest !== null) : [];

  const downloadEvents = async (billingMeterId: string) => {
    setDownloading(billingMeterId);
    try {
      downloadText(await eventsOf(billingMeterId), `${fileStem(shown)}-${billingMeterId}-events.csv`);
    } finally {
      setDownloading(null);
    }
  };
  const check = async () => {
    const digests = await Promise.all(listed.map(async (meter) => [meter.billing_meter_id, await sha256Hex(await eventsOf(meter.billing_meter_id))] as const));
    verify.mutate({ statement: shown, eventDigests: Object.fromEntries(digests) });
  };

  return (
    <section aria-label="Statement" className="panel">
      <h2>
        Statement, {formatDate(shown.period.start, locale)} – {formatDate(shown.period.end, locale)}
      </h2>
      <p className="muted">
        Version {shown.version}, issued {formatDate(shown.issued_at, locale)}; signed with key <code>{shown.signature.key_id}</code>.
      </p>
      {newest > 1 && (
        <label>
          Version{' '}
          <select
            value={version ?? newest}
            onChange={(event) => {
              const chosen = Number(event.target.value);
              setVersion(chosen === newest ? undefined : chosen);
              verify.reset();
            }}
          >
            {Array.from({ length: newest }, (_, n) => newest - n).map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
      )}
      {shown.changes.length > 0 && (
        <>
          <h3>Changed since version {shown.version - 1}</h3>
          <ul>
            {shown.changes.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        </>
      )}
      <table className="event-table">
        <caption className="muted">Per meter: the usage from the listed events, and what billing reported</caption>
        <thead>
          <tr>
            <th scope="col">Meter</th>
            <th scope="col">Usage</th>
            <th scope="col">Reported by billing</th>
            <th scope="col">Amount</th>
            <th scope="col">Events</th>
          </tr>
        </thead>
        <tbody>
          {shown.meters.map((meter) => (
            <tr key={meter.billing_meter_id}>
              <td>{meter.name}</td>
              <td>{formatNumber(meter.usage, locale)}</td>
              <td>{meter.reported_usage === null ? '—' : formatNumber(meter.reported_usage, locale)}</td>
              <td>{meter.amount !== null && meter.currency !== null ? formatMoney(meter.amount, meter.currency, locale) : '—'}</td>
              <td>
                {formatNumber(meter.event_count, locale)}{' '}
                {meter.events_digest === null ? (
                  <span className="muted">(too many to list)</span>
                ) : (
                  <button
                    type="button"
                    className="secondary"
                    disabled={downloading !== null || !current}
                    onClick={() => void downloadEvents(meter.billing_meter_id)}
                  >
                    {downloading === meter.billing_meter_id ? 'Downloading…' : `Download ${meter.name} events`}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <button type="button" className="secondary" onClick={() => downloadText(JSON.stringify(shown, null, 2), `${fileStem(shown)}.json`, 'application/json')}>
          Download statement
        </button>{' '}
        <button type="button" disabled={verify.isPending} onClick={() => void check()}>
          {verify.isPending ? 'Checking…' : 'Check this statement'}
        </button>
      </p>
      {verify.isError && <p role="alert">The check failed: {verify.error.message}</p>}
      {verify.data && <VerificationResult result={verify.data} />}
    </section>
  );
}
