import { useEffect, useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { useSaveCohort, type Cohort } from '../api/cohorts';
import { criteriaFromText, type CohortType } from '../utils/criteria';
import { eventsOfRows, joinCriteria, splitCriteria, type EventConditions } from '../utils/event-conditions';
import { CohortMembers } from './cohort-members';
import { EventConditionsFields } from './event-conditions-fields';

/** How long the editor waits after typing before counting members again. */
const COUNT_DELAY_MS = 400;

/**
 * Creates or edits a cohort: name, kind, the profiles it takes and what they did (event
 * conditions), with the member count following the criteria as they are edited.
 */
export function CohortEditor({ cohort, onSaved }: { cohort?: Cohort; onSaved: (cohort: Cohort) => void }) {
  const initial = cohort ? splitCriteria(cohort.criteria) : { profileText: '', events: { match: 'all' as const, rows: [] } };
  const [name, setName] = useState(cohort?.cohort_name ?? '');
  const [type, setType] = useState<CohortType>(cohort?.cohort_type ?? 'user');
  const [text, setText] = useState(initial.profileText);
  const [events, setEvents] = useState<EventConditions>(initial.events);
  const [counted, setCounted] = useState<{ criteria?: Record<string, unknown>; problem?: string }>({});
  const save = useSaveCohort();
  useEffect(() => {
    const timer = setTimeout(() => {
      try {
        setCounted({ criteria: joinCriteria(criteriaFromText(text), eventsOfRows(events)) });
      } catch (error) {
        setCounted({ problem: error instanceof Error ? error.message : String(error) });
      }
    }, COUNT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, events]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!counted.criteria) return;
    save.mutate({ ...(cohort ? { id: cohort._id } : {}), cohort_name: name.trim(), cohort_type: type, criteria: counted.criteria }, { onSuccess: onSaved });
  };
  return (
    <form className="cohort-editor" onSubmit={submit} aria-label={cohort ? 'Edit cohort' : 'New cohort'}>
      <div className="inline-form">
        <label>
          Cohort name <input name="cohort_name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={256} />
        </label>
        <label>
          Of
          <select name="cohort_type" value={type} onChange={(e) => setType(e.target.value === 'company' ? 'company' : 'user')} disabled={cohort !== undefined}>
            <option value="user">Users</option>
            <option value="company">Companies</option>
          </select>
        </label>
      </div>
      <label className="criteria">
        <span>
          Profiles: <code>field:value</code> terms, or a search-DSL query as JSON
        </span>
        <textarea name="criteria" value={text} onChange={(e) => setText(e.target.value)} rows={4} placeholder="metadata.plan:pro" />
      </label>
      <EventConditionsFields value={events} onChange={setEvents} />
      {counted.problem ? (
        <p role="alert" className="error-message">
          The criteria are not valid JSON: {counted.problem}
        </p>
      ) : (
        <CohortMembers type={type} criteria={counted.criteria} list={false} />
      )}
      <ErrorMessage error={save.error} />
      <button type="submit" disabled={save.isPending || !counted.criteria}>
        {cohort ? 'Save cohort' : 'Create cohort'}
      </button>
    </form>
  );
}
