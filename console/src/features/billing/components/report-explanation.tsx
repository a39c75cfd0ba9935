import { Link } from 'react-router';
import { JsonView } from '../../../components/json-view';
import { useReportExplanation } from '../api/reports';
import { QueryState } from '../../../components/query-state';

/** The report's usage query run again: the usage now, whether it matches, the query and sample events. */
export function ReportExplanationView({ reportId }: { reportId: string }) {
  const explanation = useReportExplanation(reportId, true);
  if (!explanation.isSuccess) return <QueryState query={explanation} loading="Re-running the usage query…" />;
  const e = explanation.data;
  return (
    <div className="explanation">
      <p>
        The meter's query over this window now finds <strong>{e.event_count.toLocaleString()}</strong> event(s) and a usage of{' '}
        <strong>{e.recomputed_usage.toLocaleString()}</strong> (metric {e.recomputed_metric}):{' '}
        {e.matches ? 'the same as the report.' : 'not what the report says; late events will be billed as a correction.'}
        {e.company_usage_included && " It includes the company's events that name no subscription."}
      </p>
      <h3>Sample events</h3>
      {e.sample_event_ids.length === 0 ? (
        <p className="muted">No events matched.</p>
      ) : (
        <ul className="sample-events">
          {e.sample_event_ids.map((id) => (
            <li key={id}>
              <Link to={`/events/${encodeURIComponent(id)}`}>{id}</Link>
            </li>
          ))}
        </ul>
      )}
      <h3>The query</h3>
      <p className="muted">
        Events from {e.range.from} to {e.range.to} ({e.range.time_zone}).
      </p>
      <JsonView value={e.query} label="Usage query" />
    </div>
  );
}
