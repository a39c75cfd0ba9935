import { useMemo, useState } from 'react';
import { useApi } from '../../../lib/api-context';
import { ApiError } from '../../../lib/api-error';
import { LinkRefused } from '../../../components/link-refused';
import { QueryState } from '../../../components/query-state';
import { EmptyState } from '../../../components/empty-state';
import { ChartSourceProvider } from '../api/chart-source';
import { customerChartSource, useCustomerView, type CustomerView } from '../api/customer-templates';
import { specOfWorkspaceChart, VIEWS } from '../utils/chart-spec';
import { ChartPanel } from './chart-panel';

type Template = CustomerView['templates'][number];
const rangeLabel = (range: Template['time_ranges'][number]) => range.label ?? `${range.from} → ${range.to}`;

/** The template workspaces a customer token opens, each drawn over the customer's own events. */
export function CustomerTemplates({ token }: { token: string }) {
  const view = useCustomerView(token);
  if (view.error instanceof ApiError && view.error.status === 401) return <LinkRefused error={view.error} />;
  if (!view.isSuccess) return <QueryState query={view} loading="Loading your charts…" />;
  if (view.data.templates.length === 0) return <EmptyState title="No charts are shared with you yet" />;
  return (
    <div className="dashboard-row">
      {view.data.templates.map((template) => (
        <CustomerTemplateChart key={template._id} token={token} template={template} timeZone={view.data.time_zone} />
      ))}
    </div>
  );
}

function CustomerTemplateChart({ token, template, timeZone }: { token: string; template: Template; timeZone: string }) {
  const api = useApi();
  const [range, setRange] = useState(0);
  const source = useMemo(() => customerChartSource(api, token, template._id, range), [api, token, template._id, range]);
  const chart: { view?: string; url_query?: string } = template.chart ?? {};
  const timeRange = template.time_ranges[range] ?? template.time_ranges[0]!;
  const spec = { ...specOfWorkspaceChart(chart), from: timeRange.from, to: timeRange.to, timeZone };
  return (
    <section className="tile" aria-label={template.name ?? 'Chart'}>
      <header className="page-header">
        <h2>{template.name}</h2>
        {template.time_ranges.length > 1 ? (
          <label className="range-picker">
            Time range{' '}
            <select value={range} onChange={(event) => setRange(Number(event.target.value))}>
              {template.time_ranges.map((r, i) => (
                <option key={`${r.from}|${r.to}`} value={i}>
                  {rangeLabel(r)}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span className="muted">{rangeLabel(timeRange)}</span>
        )}
      </header>
      {chart.view !== undefined && chart.view in VIEWS ? (
        <ChartSourceProvider source={source}>
          <ChartPanel spec={spec} drawings={template.drawings ?? []} />
        </ChartSourceProvider>
      ) : (
        <p>This chart's view ({chart.view ?? 'none'}) is not drawn by the console.</p>
      )}
    </section>
  );
}
