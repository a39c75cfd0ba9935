import { useMemo, useState } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { useApi } from '../../../lib/api-context';
import { ApiError } from '../../../lib/api-error';
import { ChartSourceProvider } from '../api/chart-source';
import { sharedChartSource, useSharedView, type SharedTimeRange, type SharedView } from '../api/shared-views';
import { specOfWorkspaceChart, VIEWS } from '../utils/chart-spec';
import { ChartPanel } from './chart-panel';

const rangeLabel = (range: SharedTimeRange) => range.label ?? `${range.from} → ${range.to}`;

/**
 * A shared workspace or dashboard, for someone without an account: each chart drawn from its stored
 * query over the range the viewer picks among those the owner allowed. `embedded`: without the
 * page's heading and notes, to sit in another site's iframe.
 */
export function SharedViewContent({ token, embedded }: { token: string; embedded: boolean }) {
  const view = useSharedView(token);
  const [range, setRange] = useState(0);
  if (view.isPending) return <Loading label="Loading the shared view…" />;
  if (view.error) {
    const gone = view.error instanceof ApiError && (view.error.status === 401 || view.error.status === 404);
    return gone ? (
      <div role="alert" className="error-message">
        <p>This link no longer works: it has expired, was revoked, or what it showed was deleted.</p>
      </div>
    ) : (
      <ErrorMessage error={view.error} />
    );
  }
  const { name, workspaces, time_ranges: ranges, time_zone: timeZone, expires_at: expiresAt } = view.data;
  const picker = ranges.length > 1 && (
    <label className="range-picker">
      Time range{' '}
      <select value={range} onChange={(event) => setRange(Number(event.target.value))}>
        {ranges.map((r, i) => (
          <option key={`${r.from}|${r.to}`} value={i}>
            {rangeLabel(r)}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className={embedded ? 'shared-view embedded' : 'shared-view'}>
      <header className="page-header">
        {embedded ? <h1 className="embedded-title">{name}</h1> : <h1>{name}</h1>}
        <div className="page-actions">
          {picker}
          {ranges.length === 1 && <span className="muted">{rangeLabel(ranges[0]!)}</span>}
        </div>
      </header>
      {workspaces.length === 0 && <p>Nothing is on this dashboard any more.</p>}
      <div className={view.data.kind === 'dashboard' ? 'dashboard-row' : undefined}>
        {workspaces.map((workspace) => (
          <SharedWorkspaceChart
            key={workspace._id}
            token={token}
            workspace={workspace}
            range={range}
            timeRange={ranges[range]!}
            timeZone={timeZone}
            titled={view.data.kind === 'dashboard'}
          />
        ))}
      </div>
      {!embedded && (
        <p className="muted">
          A read-only view shared by its owner; times in {timeZone}; the link works until {new Date(expiresAt).toLocaleString()}.
        </p>
      )}
    </div>
  );
}

function SharedWorkspaceChart({
  token,
  workspace,
  range,
  timeRange,
  timeZone,
  titled,
}: {
  token: string;
  workspace: SharedView['workspaces'][number];
  range: number;
  timeRange: SharedTimeRange;
  timeZone: string;
  titled: boolean;
}) {
  const api = useApi();
  const source = useMemo(() => sharedChartSource(api, token, workspace._id, range), [api, token, workspace._id, range]);
  const chart: { view?: string; url_query?: string } = workspace.chart ?? {};
  // Drawn as the owner's console drew it; the range and zone are the token's (the service applies them).
  const spec = { ...specOfWorkspaceChart(chart), from: timeRange.from, to: timeRange.to, timeZone };
  const drawable = chart.view !== undefined && chart.view in VIEWS;
  return (
    <section className={titled ? 'tile' : undefined} aria-label={workspace.name ?? 'Shared chart'}>
      {titled && <h2>{workspace.name}</h2>}
      {drawable ? (
        <ChartSourceProvider source={source}>
          <ChartPanel spec={spec} drawings={workspace.drawings ?? []} />
        </ChartSourceProvider>
      ) : (
        <p>This chart's view ({chart.view ?? 'none'}) is not drawn by the console.</p>
      )}
    </section>
  );
}
