import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '../../../components/error-message';
import { useFormatTime } from '../../../lib/app-time-zone';
import { instantOf } from '../../../lib/time';
import { useReplaceEvents, useVoidEvents, useVoidPreview } from '../api/event-voids';
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
  /** A corrected set to send in the voided events' place (a replacement), as JSON text; null: a plain void. */
  const [corrected, setCorrected] = useState<string | null>(null);
  // One id per form: a repeated press retries the same replacement instead of making another.
  const [replacementId] = useState(() => crypto.randomUUID());
  const query = streamQuery(filters);
  const from = instantOf(range.from);
  const to = instantOf(range.to);
  const preview = useVoidPreview(query, from, to);
  const voiding = useVoidEvents();
  const replacing = useReplaceEvents();
  const matched = preview.data;
  const parsed = corrected === null ? undefined : correctedEvents(corrected);
  const done = voiding.data ?? replacing.data;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!from || !to) return;
    if (parsed === undefined) voiding.mutate({ reason, query, from, to });
    else if (Array.isArray(parsed)) replacing.mutate({ id: replacementId, reason, query, from, to, events: parsed });
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
        <label className="toggle">
          <input type="checkbox" name="replace" checked={corrected !== null} onChange={(e) => setCorrected(e.target.checked ? '[]' : null)} /> Send a corrected
          set in their place
        </label>
        {corrected !== null ? (
          <label className="field">
            Corrected API calls (a JSON array, each as POST /v1/events/batch takes it, timed within the range)
            <textarea name="corrected_events" value={corrected} onChange={(e) => setCorrected(e.target.value)} rows={6} spellCheck={false} />
            {typeof parsed === 'string' ? <span className="error">{parsed}</span> : null}
          </label>
        ) : null}
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
        {Array.isArray(parsed) ? (
          <button type="submit" className="danger" disabled={matched === undefined || !reason.trim() || parsed.length === 0 || replacing.isPending}>
            {replacing.isPending ? 'Replacing…' : `Replace ${matched?.toLocaleString() ?? ''} events with ${parsed.length}`}
          </button>
        ) : (
          <button type="submit" className="danger" disabled={!matched || !reason.trim() || voiding.isPending || parsed !== undefined}>
            {voiding.isPending ? 'Voiding…' : `Void ${matched?.toLocaleString() ?? ''} events`}
          </button>
        )}
        <ErrorMessage error={voiding.error ?? replacing.error} />
        {done ? (
          <p role="status">
            Voided {done.voided.toLocaleString()} events
            {done.replacement ? ` and sent ${done.replacement.events.toLocaleString()} in their place` : ''} ({done.billing_hours} hours for billing to
            correct). <Link to="/events/voids">The audit log</Link>
          </p>
        ) : null}
      </form>
    </details>
  );
}

/** The corrected set as typed: an array of events, or what is wrong with the text. */
function correctedEvents(text: string): unknown[] | string {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : 'Give a JSON array of API calls.';
  } catch {
    return 'This is not JSON yet.';
  }
}
