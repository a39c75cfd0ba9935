import { FilterPicker } from '../../../components/filter-picker';
import { withClause } from '../../../lib/field-clauses';
import {
  ACTORS,
  CONVERSION_WINDOWS,
  MAX_FORM_STEPS,
  RETENTION_INTERVALS,
  type Actor,
  type AnalysisSettings,
  type ConversionWindow,
  type RetentionInterval,
} from '../utils/analysis-spec';

/** The funnel or retention view's own settings: whose journey, and the steps or the two events. */
export function AnalysisFields({
  view,
  settings,
  onChange,
}: {
  view: 'funnel' | 'retention';
  settings: AnalysisSettings;
  onChange: (settings: AnalysisSettings) => void;
}) {
  const set = (patch: Partial<AnalysisSettings>) => onChange({ ...settings, ...patch });
  const steps = [...settings.steps, ...Array<string>(Math.max(0, MAX_FORM_STEPS - settings.steps.length)).fill('')].slice(0, MAX_FORM_STEPS);
  return (
    <>
      <label>
        Follow
        <select name="by" value={settings.by} onChange={(e) => set({ by: e.target.value as Actor })}>
          {Object.entries(ACTORS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {view === 'funnel' ? (
        <>
          {steps.map((step, i) => (
            <label key={i}>
              Step {i + 1}
              {i >= 2 ? ' (optional)' : ''}
              <input
                name={`step_${i}`}
                value={step}
                placeholder={i === 0 ? 'request.verb:POST' : 'any event'}
                onChange={(e) => set({ steps: steps.map((value, j) => (j === i ? e.target.value : value)) })}
              />
            </label>
          ))}
          <FilterPicker
            label="Build a step condition from the data"
            targets={steps.map((_, i) => `Step ${i + 1}`)}
            onPick={(clause, target) => set({ steps: steps.map((value, j) => (j === target ? withClause(value, clause) : value)) })}
          />
          <label>
            Within
            <select name="window" value={settings.conversionWindow} onChange={(e) => set({ conversionWindow: e.target.value as ConversionWindow })}>
              {Object.entries(CONVERSION_WINDOWS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </>
      ) : (
        <>
          <label>
            First event <input name="first" value={settings.firstEvent} placeholder="any event" onChange={(e) => set({ firstEvent: e.target.value })} />
          </label>
          <label>
            Coming back <input name="return" value={settings.returnEvent} placeholder="any event" onChange={(e) => set({ returnEvent: e.target.value })} />
          </label>
          <FilterPicker
            label="Build an event condition from the data"
            targets={['First event', 'Coming back']}
            onPick={(clause, target) =>
              set(target === 0 ? { firstEvent: withClause(settings.firstEvent, clause) } : { returnEvent: withClause(settings.returnEvent, clause) })
            }
          />
          <label>
            Every
            <select name="every" value={settings.every} onChange={(e) => set({ every: e.target.value as RetentionInterval })}>
              {Object.entries(RETENTION_INTERVALS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Periods{' '}
            <input
              name="periods"
              type="number"
              min={1}
              max={104}
              value={settings.periods}
              onChange={(e) => set({ periods: Math.min(104, Math.max(1, Number(e.target.value) || 1)) })}
              size={4}
            />
          </label>
        </>
      )}
    </>
  );
}
