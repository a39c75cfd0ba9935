import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '../../../components/error-message';
import { useFormatTime } from '../../../lib/app-time-zone';
import { instantOf } from '../../../lib/time';
import { useVoidEvents, useVoidPreview } from '../api/event-voids';
import { streamQuery, type EventFilters } from '../utils/stream-query';

/**
 * Voids the events the stream's filters match, in a fixed range (the filters' window, as instants):
 * how many the void would mark is shown first, a reason is required, and the void is confirmed with
 * its count. Voided events stay stored and listed under "Voided events: Only voided"; billing
 * corrects the windows it reported (docs/event-voids.md).
 */
export function VoidEventsForm({ filters }: { filters: EventFilters }) {
  const format = useFormatTime();
  const [range, setRange] = useState(() => ({ from: instantOf(filters.from) ?? '', to: instantOf(filters.to) ?? '' }));
  const [reason, setReason] = useState('');
  const query = streamQuery(filters);
  const from = instantOf(range.from);
  const to = instantOf(range.to);
  const preview = useVoidPreview(query, from, to);
  const voiding = useVoidEvents();
  const matched = preview.data;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (from && to) voiding.mutate({ reason, query, from, to });
  };
  return (
    <details className="tile">
      <summary>Void the events these filters match…</summary>
      <form onSubmit={submit} aria-label="Void events">
        <p className="muted">
          Voided events are kept and marked, and left out of searches, counts, charts, analyses, cohorts and meters. A billing period the run reported already
          is corrected by its next run. At most 100,000 events, as far back as 30 days.
        </p>
        <label className="field">
          From <input name="void_from" value={range.from} onChange={(e) => setRange({ ...range, from: e.target.value })} />
        </label>
        <label className="field">
          To <input name="void_to" value={range.to} onChange={(e) => setRange({ ...range, to: e.target.value })} />
        </label>
        <label className="field">
          Why (kept in the audit log)
          <textarea name="void_reason" value={reason} onChange={(e) => setReason(e.target.value)} rows={2} maxLength={500} required />
        </label>
        <p role="status">
          {!from || !to
            ? 'Give the range as dates.'
            : preview.isPending
              ? 'Counting the events…'
              : matched === undefined
                ? ''
                : `${matched.toLocaleString()} events match between ${format(from)} and ${format(to)}.`}
        </p>
        <ErrorMessage error={preview.error} />
        <button type="submit" className="danger" disabled={!matched || !reason.trim() || voiding.isPending}>
          {voiding.isPending ? 'Voiding…' : `Void ${matched?.toLocaleString() ?? ''} events`}
        </button>
        <ErrorMessage error={voiding.error} />
        {voiding.data ? (
          <p role="status">
            Voided {voiding.data.voided.toLocaleString()} events ({voiding.data.billing_hours} hours for billing to correct).{' '}
            <Link to="/events/voids">The audit log</Link>
          </p>
        ) : null}
      </form>
    </details>
  );
}
