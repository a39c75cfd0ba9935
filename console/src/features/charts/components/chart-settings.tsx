import { useState, type FormEvent } from 'react';
import { FieldInput, FilterPicker } from '../../../components/filter-picker';
import { withClause } from '../../../lib/field-clauses';
import { RELATIVE_RANGES } from '../../../lib/time';
import {
  DEFAULT_SEGMENT_FIELD,
  DISPLAYS,
  INTERVALS,
  isAnalysisView,
  METRICS,
  TOP_SIZES,
  VIEWS,
  type ChartInterval,
  type ChartMetric,
  type ChartSpec,
  type ChartView,
  type TotalsDisplay,
} from '../utils/chart-spec';
import { AnalysisFields } from './analysis-fields';

/** What a chart shows: its view, range and time zone, and the view's own settings. */
export function ChartSettings({ spec, onChange }: { spec: ChartSpec; onChange: (spec: ChartSpec) => void }) {
  const [draft, setDraft] = useState(spec);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange(draft);
  };
  return (
    <form className="filter-bar" onSubmit={submit} aria-label="Chart settings">
      <label>
        View
        <select name="view" value={draft.view} onChange={(e) => setDraft({ ...draft, view: e.target.value as ChartView })}>
          {Object.entries(VIEWS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {isAnalysisView(draft.view) ? (
        <AnalysisFields view={draft.view} settings={draft.analysis} onChange={(analysis) => setDraft({ ...draft, analysis })} />
      ) : (
        <SearchChartFields draft={draft} setDraft={setDraft} />
      )}
      <label>
        Time range
        <select name="range" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value, to: 'now' })}>
          {RELATIVE_RANGES.map((range) => (
            <option key={range.from} value={range.from}>
              {range.label}
            </option>
          ))}
          {!RELATIVE_RANGES.some((range) => range.from === draft.from) && <option value={draft.from}>{draft.from}</option>}
        </select>
      </label>
      <label>
        Time zone <input name="time_zone" value={draft.timeZone} onChange={(e) => setDraft({ ...draft, timeZone: e.target.value })} size={14} />
      </label>
      <button type="submit">Draw</button>
    </form>
  );
}

/** The settings of the views drawn from a search: metric, interval, grouping (any field, its top N) and filter. */
function SearchChartFields({ draft, setDraft }: { draft: ChartSpec; setDraft: (spec: ChartSpec) => void }) {
  return (
    <>
      <label>
        Metric
        <select name="metric" value={draft.metric} onChange={(e) => setDraft({ ...draft, metric: e.target.value as ChartMetric })}>
          {Object.entries(METRICS).map(([value, metric]) => (
            <option key={value} value={value}>
              {metric.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Interval
        <select name="interval" value={draft.interval} onChange={(e) => setDraft({ ...draft, interval: e.target.value as ChartInterval })}>
          {Object.entries(INTERVALS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <FieldInput
        label="Group by"
        name="group_by"
        value={draft.groupBy ?? ''}
        onChange={(field) => setDraft({ ...draft, groupBy: field.trim() || undefined })}
        placeholder={draft.view === 'segmentation' || draft.view === 'top_values' ? `${DEFAULT_SEGMENT_FIELD} (default)` : 'nothing'}
      />
      <label>
        Top
        <select name="top" value={draft.top} onChange={(e) => setDraft({ ...draft, top: Number(e.target.value) })}>
          {TOP_SIZES.map((size) => (
            <option key={size} value={size}>
              {size} values
            </option>
          ))}
        </select>
      </label>
      {draft.view === 'top_values' && (
        <label>
          Draw as
          <select name="display" value={draft.display} onChange={(e) => setDraft({ ...draft, display: e.target.value as TotalsDisplay })}>
            {Object.entries(DISPLAYS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="query-bar">
        Filter{' '}
        <input
          name="q"
          value={draft.filter ?? ''}
          onChange={(e) => setDraft({ ...draft, filter: e.target.value || undefined })}
          placeholder="response.status:500"
        />
      </label>
      <FilterPicker label="Build a chart condition from the data" onPick={(clause) => setDraft({ ...draft, filter: withClause(draft.filter, clause) })} />
    </>
  );
}
