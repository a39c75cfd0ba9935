import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { Loading } from '../../../components/loading';
import { QueryState } from '../../../components/query-state';
import { useTimeSeriesChart } from '../../../components/use-time-series-chart';
import { useAppTimeZone } from '../../../lib/app-time-zone';
import { changeText } from '../../../lib/previous-period';
import { percent } from '../../../lib/number-format';
import { FigureNumber } from '../../../components/figure-number';
import { RELATIVE_RANGES } from '../../../lib/time';
import { RangeSelect } from '../../../components/range-select';
import { OVERVIEW_REFRESH_MS, useOverview } from '../api/overview';
import type { Overview as OverviewData, OverviewNumbers, TopRow } from '../utils/overview-body';

/** The change on the previous period, as a figure's note. */
const compared = (change: string | undefined) => (change ? `${change} on the previous period` : 'Nothing in the previous period to compare');
const millis = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${Math.round(value).toLocaleString()} ms`);
const COUNTRY_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

function Headline({ numbers, previous }: { numbers: OverviewNumbers; previous: OverviewNumbers | undefined }) {
  return (
    <div className="overview-figures">
      <FigureNumber label="API calls" shown={numbers.calls.toLocaleString()} note={compared(previous && changeText(numbers.calls, previous.calls))} />
      <FigureNumber label="Error rate" shown={percent(numbers.errorRate)} note={compared(previous && changeText(numbers.errorRate, previous.errorRate))} />
      <FigureNumber label="p50 latency" shown={millis(numbers.p50)} note={compared(previous && changeText(numbers.p50, previous.p50))} />
      <FigureNumber label="p90 latency" shown={millis(numbers.p90)} note={compared(previous && changeText(numbers.p90, previous.p90))} />
    </div>
  );
}

function TopTable({
  label,
  column,
  rows,
  name,
  latency = false,
}: {
  label: string;
  column: string;
  rows: readonly TopRow[];
  name: (key: string) => ReactNode;
  latency?: boolean;
}) {
  return (
    <section className="tile" aria-label={label}>
      <h2>{label}</h2>
      {rows.length === 0 ? (
        <p className="muted">None in this range.</p>
      ) : (
        <table className="event-table" aria-label={label}>
          <thead>
            <tr>
              <th scope="col">{column}</th>
              <th scope="col">Calls</th>
              <th scope="col">Errors</th>
              {latency && <th scope="col">p90</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row">{name(row.key)}</th>
                <td>{row.calls.toLocaleString()}</td>
                <td>{percent(row.errorRate)}</td>
                {latency && <td>{millis(row.p90)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Countries({ data }: { data: OverviewData }) {
  return (
    <section className="tile" aria-label="Calls by country">
      <h2>Calls by country</h2>
      {data.countries.length === 0 ? (
        <p className="muted">No call in this range came from a public address.</p>
      ) : (
        <table className="event-table" aria-label="Calls by country">
          <thead>
            <tr>
              <th scope="col">Country</th>
              <th scope="col">Calls</th>
              <th scope="col">Share</th>
            </tr>
          </thead>
          <tbody>
            {data.countries.map((country) => (
              <tr key={country.code}>
                <th scope="row">
                  {COUNTRY_NAMES.of(country.code) ?? country.code} <span className="muted">{country.code}</span>
                </th>
                <td>{country.calls.toLocaleString()}</td>
                <td>{percent(country.share)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted">
        {data.withoutCountry > 0
          ? `${data.withoutCountry.toLocaleString()} ${data.withoutCountry === 1 ? 'call' : 'calls'} without a country (private addresses, or stored before enrichment). `
          : ''}
        <a href="https://db-ip.com">IP Geolocation by DB-IP</a>
      </p>
    </section>
  );
}

/**
 * The console's home: the app's API calls over a range (live, read again every 30 s), its error
 * rate and latency against the previous period, calls and errors over time, the top routes,
 * customers, clients (browsers and HTTP libraries) and countries.
 */
export function Overview() {
  const [from, setFrom] = useState('-24h');
  const timeZone = useAppTimeZone();
  const overview = useOverview(from, timeZone);
  const TimeSeriesChart = useTimeSeriesChart();
  const range = RELATIVE_RANGES.find((r) => r.from === from)?.label ?? from;
  return (
    <>
      <form className="filter-bar" aria-label="Overview range" onSubmit={(e) => e.preventDefault()}>
        <label>
          Range
          <RangeSelect value={from} onChange={setFrom} />
        </label>
        {overview.isSuccess && (
          <span className="muted">
            Live: read at {new Date(overview.data.at).toLocaleTimeString()}, again every {OVERVIEW_REFRESH_MS / 1000} s
          </span>
        )}
      </form>
      {!overview.isSuccess ? (
        <QueryState query={overview} loading="Loading the overview…" />
      ) : overview.data.current.numbers.calls === 0 ? (
        <EmptyState title={`No API calls in the ${range.toLowerCase()}`}>
          <p>
            Send calls from your API with one of the SDKs: <Link to="/apps">Apps and keys</Link> has the settings, or widen the range.
          </p>
        </EmptyState>
      ) : (
        <>
          <Headline numbers={overview.data.current.numbers} previous={overview.data.previous?.numbers} />
          <section className="tile" aria-label="Calls and errors over time">
            <h2>Calls and errors over time</h2>
            {TimeSeriesChart ? (
              <TimeSeriesChart series={overview.data.current.series} label={`Calls and errors, ${range.toLowerCase()}`} />
            ) : (
              <Loading label="Drawing the chart…" />
            )}
          </section>
          <div className="dashboard-row">
            <TopTable
              label="Top routes"
              column="Route"
              rows={overview.data.current.routes}
              latency
              name={(route) => <Link to={`/events?${new URLSearchParams({ route, from })}`}>{route}</Link>}
            />
            <TopTable
              label="Top customers"
              column="Company"
              rows={overview.data.current.companies}
              name={(id) => <Link to={`/companies/${encodeURIComponent(id)}`}>{id}</Link>}
            />
            <TopTable label="Top clients" column="Client" rows={overview.data.current.clients} name={(client) => client} />
            <Countries data={overview.data.current} />
          </div>
        </>
      )}
    </>
  );
}
