import { useState, type FormEvent } from 'react';
import { FilterPicker } from '../../../components/filter-picker';
import { withClause } from '../../../lib/field-clauses';
import { RELATIVE_RANGES } from '../../../lib/time';
import { RangeSelect } from '../../../components/range-select';
import type { EventFilters } from '../utils/stream-query';

/** The stream's filters: time range, status, verb, route, user, company, a free query bar and a picker that adds to it. */
export function EventFilterBar({ filters, onChange }: { filters: EventFilters; onChange: (filters: EventFilters) => void }) {
  const [draft, setDraft] = useState(filters);
  const field = (name: keyof EventFilters) => ({
    name,
    value: draft[name] ?? '',
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange(draft);
  };
  const relative = RELATIVE_RANGES.some((range) => range.from === draft.from);
  return (
    <form className="filter-bar" onSubmit={submit} aria-label="Event filters">
      <label>
        Time range
        <RangeSelect
          name="range"
          value={relative ? draft.from : 'custom'}
          onChange={(from) =>
            setDraft({
              ...draft,
              from: from === 'custom' ? new Date(Date.now() - 86_400_000).toISOString() : from,
              to: from === 'custom' ? new Date().toISOString() : 'now',
            })
          }
          last={<option value="custom">Between dates…</option>}
        />
      </label>
      {!relative && (
        <>
          <label>
            From <input {...field('from')} />
          </label>
          <label>
            To <input {...field('to')} />
          </label>
        </>
      )}
      <label>
        Status <input {...field('status')} placeholder="500 or 5xx" size={6} />
      </label>
      <label>
        Verb <input {...field('verb')} placeholder="GET" size={6} />
      </label>
      <label>
        Route <input {...field('route')} placeholder="/orders/:id" />
      </label>
      <label>
        User <input {...field('userId')} />
      </label>
      <label>
        Company <input {...field('companyId')} />
      </label>
      <label className="query-bar">
        Query <input {...field('text')} placeholder="request.verb:POST metadata.plan:pro" />
      </label>
      <label>
        Voided events
        <select
          name="voided"
          value={draft.voided ?? ''}
          onChange={(e) => setDraft({ ...draft, voided: e.target.value === 'include' || e.target.value === 'only' ? e.target.value : undefined })}
        >
          <option value="">Left out</option>
          <option value="include">Included</option>
          <option value="only">Only voided</option>
        </select>
      </label>
      <FilterPicker label="Build a condition from the data" onPick={(clause) => setDraft({ ...draft, text: withClause(draft.text, clause) })} />
      <button type="submit">Apply</button>
    </form>
  );
}
