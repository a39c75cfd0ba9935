import {
  CALENDAR_UNITS,
  MEASURES,
  NEW_CONDITION,
  OPERATOR_LABELS,
  OPERATORS,
  oneOf,
  ROLLING_UNITS,
  WINDOWS,
  type ConditionRow,
  type EventConditions,
} from '../utils/event-conditions';

/**
 * The behavioural part of a cohort: each row says what a member did (or did not do) — which events,
 * measured how, compared with what, within which window.
 */
export function EventConditionsFields({ value, onChange }: { value: EventConditions; onChange: (next: EventConditions) => void }) {
  const update = (k: number, change: Partial<ConditionRow>) =>
    onChange({ ...value, rows: value.rows.map((row, i) => (i === k ? { ...row, ...change } : row)) });
  return (
    <fieldset className="event-conditions">
      <legend>Behaviour</legend>
      {value.rows.length > 1 && (
        <label>
          Members meet{' '}
          <select name="events_match" value={value.match} onChange={(e) => onChange({ ...value, match: e.target.value === 'any' ? 'any' : 'all' })}>
            <option value="all">all of these</option>
            <option value="any">any of these</option>
          </select>
        </label>
      )}
      {value.rows.map((row, k) => (
        <fieldset key={k} className="inline-form event-condition" aria-label={`Event condition ${k + 1}`}>
          <select aria-label="Performed" value={row.performed ? 'did' : 'did not'} onChange={(e) => update(k, { performed: e.target.value === 'did' })}>
            <option value="did">Did</option>
            <option value="did not">Did not do</option>
          </select>
          <input
            aria-label="Events"
            placeholder="request.verb:POST (empty: any event)"
            value={row.queryText}
            onChange={(e) => update(k, { queryText: e.target.value })}
          />
          <select aria-label="Measure" value={row.measure} onChange={(e) => update(k, { measure: oneOf(e.target.value, MEASURES, 'count') })}>
            <option value="count">events counted</option>
            <option value="sum_weight">weight summed</option>
            <option value="distinct">distinct values of</option>
          </select>
          {row.measure === 'distinct' && (
            <input
              aria-label="Distinct field"
              placeholder="request.route.raw"
              value={row.field}
              onChange={(e) => update(k, { field: e.target.value })}
              required
            />
          )}
          <select aria-label="Comparison" value={row.operator} onChange={(e) => update(k, { operator: oneOf(e.target.value, OPERATORS, 'gte') })}>
            {Object.entries(OPERATOR_LABELS).map(([operator, label]) => (
              <option key={operator} value={operator}>
                {label}
              </option>
            ))}
          </select>
          <input aria-label="Number" type="number" step="any" value={row.value} onChange={(e) => update(k, { value: Number(e.target.value) })} />
          <select aria-label="Window" value={row.window} onChange={(e) => update(k, { window: oneOf(e.target.value, WINDOWS, 'last') })}>
            <option value="last">in the last</option>
            <option value="calendar">in the calendar</option>
            <option value="billing_period">in the current billing period</option>
          </select>
          {row.window === 'last' && (
            <>
              <input aria-label="Window length" type="number" min={1} value={row.last} onChange={(e) => update(k, { last: Number(e.target.value) })} />
              <select aria-label="Window unit" value={row.unit} onChange={(e) => update(k, { unit: oneOf(e.target.value, ROLLING_UNITS, 'days') })}>
                <option value="minutes">minutes</option>
                <option value="hours">hours</option>
                <option value="days">days</option>
              </select>
            </>
          )}
          {row.window === 'calendar' && (
            <>
              <select
                aria-label="Calendar period"
                value={row.calendar}
                onChange={(e) => update(k, { calendar: oneOf(e.target.value, CALENDAR_UNITS, 'month') })}
              >
                {CALENDAR_UNITS.map((unit) => (
                  <option key={unit} value={unit}>
                    {unit}
                  </option>
                ))}
              </select>
              <select aria-label="Which period" value={row.periodsAgo} onChange={(e) => update(k, { periodsAgo: Number(e.target.value) })}>
                <option value={0}>this one, so far</option>
                <option value={1}>the one before</option>
                <option value={2}>two before</option>
              </select>
            </>
          )}
          <button type="button" className="secondary" onClick={() => onChange({ ...value, rows: value.rows.filter((_, i) => i !== k) })}>
            Remove
          </button>
        </fieldset>
      ))}
      <button type="button" className="secondary" onClick={() => onChange({ ...value, rows: [...value.rows, { ...NEW_CONDITION }] })}>
        Add event condition
      </button>
    </fieldset>
  );
}
