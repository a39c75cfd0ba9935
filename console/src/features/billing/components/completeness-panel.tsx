import { lazy, Suspense } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { QueryState } from '../../../components/query-state';
import { formatTime } from '../../../lib/time';
import { useMeasureLateness, useMeterCompleteness, type MeterCompleteness } from '../api/completeness';

const TotalsChart = lazy(() => import('../../../components/analysis-charts').then((module) => ({ default: module.TotalsChart })));

const SOURCES: Record<MeterCompleteness['grace']['source'], string> = {
  configured: "set on the meter's plan (grace_period_minutes)",
  observed: 'chosen from how late its events arrive (99 % within it)',
  minimum: 'the minimum, until enough events have been observed',
};

/**
 * A meter's completeness: how long its windows wait for late events before their first report and
 * why, which windows are final, in grace or still open, the late corrections made after a period was
 * final, and how late its events arrive (measured once a day, or now).
 */
export function CompletenessPanel({ meterId }: { meterId: string }) {
  const completeness = useMeterCompleteness(meterId);
  const measure = useMeasureLateness(meterId);
  return (
    <section className="tile" aria-label="Completeness">
      <h2>Completeness</h2>
      {!completeness.isSuccess ? (
        <QueryState query={completeness} loading="Reading the meter's completeness…" />
      ) : (
        <Standing completeness={measure.data ?? completeness.data} />
      )}
      <button type="button" onClick={() => measure.mutate(undefined)} disabled={measure.isPending}>
        {measure.isPending ? 'Measuring…' : 'Measure lateness now'}
      </button>
      <ErrorMessage error={measure.error} />
    </section>
  );
}

function Standing({ completeness }: { completeness: MeterCompleteness }) {
  const { grace, windows, late_after_final: late, lateness } = completeness;
  return (
    <>
      <dl className="facts">
        <dt>Grace period</dt>
        <dd>
          {grace.minutes} minutes: {SOURCES[grace.source]}
        </dd>
        <dt>Final</dt>
        <dd>{windows.final_through ? `every window up to ${formatTime(windows.final_through)}` : 'nothing reported yet'}</dd>
        <dt>In grace</dt>
        <dd>
          {windows.next_report_at
            ? `windows from ${formatTime(windows.final_through ?? windows.open_from)} to ${formatTime(windows.open_from)}; the first is reported at ${formatTime(windows.next_report_at)}`
            : 'none'}
        </dd>
        <dt>Open</dt>
        <dd>the window from {formatTime(windows.open_from)}</dd>
        <dt>Late after final</dt>
        <dd>
          {late.corrections === 0
            ? 'no corrections after a period was final'
            : `${late.corrections.toLocaleString()} correction${late.corrections === 1 ? '' : 's'}, ${late.usage > 0 ? '+' : ''}${late.usage.toLocaleString()} usage`}
        </dd>
      </dl>
      {lateness ? <Lateness lateness={lateness} /> : <p className="muted">Lateness not measured yet: it is measured once a day, or now with the button.</p>}
    </>
  );
}

const bucketName = (upTo: number | null, previous: number | null | undefined) =>
  upTo === null ? `over ${label(previous ?? 0)}` : previous === undefined ? `under ${label(upTo)}` : `${label(previous ?? 0)}–${label(upTo)}`;
const label = (minutes: number) => (minutes >= 1440 ? `${minutes / 1440} d` : minutes >= 60 ? `${minutes / 60} h` : `${minutes} min`);

function Lateness({ lateness }: { lateness: NonNullable<MeterCompleteness['lateness']> }) {
  const rows = lateness.meter.buckets.map((bucket, k) => ({
    name: bucketName(bucket.up_to_minutes, k === 0 ? undefined : lateness.meter.buckets[k - 1]!.up_to_minutes),
    meter: bucket.events,
    app: lateness.app.buckets[k]?.events ?? 0,
  }));
  const percentile = (minutes: number | null) => (minutes === null ? 'later than 3 days' : `within ${label(minutes)}`);
  return (
    <>
      <h3>How late its events arrive</h3>
      <p className="muted">
        Measured {formatTime(lateness.measured_at)} over the events of {formatTime(lateness.from)} – {formatTime(lateness.to)}: half arrive{' '}
        {percentile(lateness.p50_minutes)}, 90 % {percentile(lateness.p90_minutes)}, 99 % {percentile(lateness.p99_minutes)}.
        {lateness.observed_grace_minutes === null
          ? ` No grace period chosen from it: ${lateness.reason ?? ''}.`
          : ` Grace chosen from it: ${lateness.observed_grace_minutes} minutes.`}
      </p>
      <Suspense fallback={<Loading label="Drawing the chart…" />}>
        <TotalsChart
          totals={rows.map((row) => ({ name: row.name, value: row.meter }))}
          display="bar"
          label={`The meter's events by how late they arrived: ${rows.map((row) => `${row.name} ${row.meter}`).join(', ')}`}
        />
      </Suspense>
      <table className="event-table" aria-label="Lateness">
        <thead>
          <tr>
            <th scope="col">Arrived after their time</th>
            <th scope="col">The meter's events</th>
            <th scope="col">The app's events</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name}>
              <td>{row.name}</td>
              <td>{row.meter.toLocaleString()}</td>
              <td>{row.app.toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
