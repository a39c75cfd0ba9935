import { useEffect, useState, type FormEvent } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { Field } from '../../../components/field';
import { Loading } from '../../../components/loading';
import { fieldProblem } from '../../../lib/api-error';
import {
  useDeleteVirtualEventType,
  useMatchingEventCount,
  useSaveVirtualEventType,
  useVirtualEventTypes,
  type VirtualEventType,
} from '../api/virtual-event-types';

/** Typed criteria: a JSON query as is, anything else as query syntax (`request.verb:POST AND response.status:201`). */
function criteriaOf(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }
  return { query_string: { query: trimmed } };
}

/** Criteria as the form shows them: query syntax back as typed, any other query as JSON. */
function criteriaText(criteria: Record<string, unknown>): string {
  const queryString = criteria['query_string'] as { query?: unknown } | undefined;
  return typeof queryString?.query === 'string' && Object.keys(criteria).length === 1 ? queryString.query : JSON.stringify(criteria);
}

function TypeForm({ type, onDone }: { type?: VirtualEventType; onDone: () => void }) {
  const save = useSaveVirtualEventType();
  const [name, setName] = useState(type?.name ?? '');
  const [description, setDescription] = useState(type?.description ?? '');
  const [text, setText] = useState(type ? criteriaText(type.criteria) : '');
  const [typed, setTyped] = useState(text);
  // Counted once typing pauses, not at every key.
  useEffect(() => {
    const timer = setTimeout(() => setTyped(text), 400);
    return () => clearTimeout(timer);
  }, [text]);
  const criteria = criteriaOf(typed);
  const count = useMatchingEventCount(criteria);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = criteriaOf(text);
    save.mutate(
      { ...(type ? { id: type._id } : {}), type: { name: name.trim(), description: description.trim(), criteria: parsed ?? {} } },
      {
        onSuccess: () => {
          onDone();
          if (!type) {
            setName('');
            setDescription('');
            setText('');
          }
        },
      },
    );
  };
  const problem = (field: string) => fieldProblem(save.error, field);
  return (
    <form onSubmit={submit} aria-label={type ? `Edit event type ${type.name}` : 'New event type'} noValidate>
      <div className="inline-form">
        <Field label="Name" problem={problem('name')}>
          <input name="type_name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Description" problem={problem('description')}>
          <input name="type_description" value={description} onChange={(e) => setDescription(e.target.value)} size={30} />
        </Field>
      </div>
      <Field
        label="Which events (query syntax such as request.verb:POST AND response.status:201, or a JSON query)"
        problem={problem('criteria') ?? (typed.trim() !== '' && !criteria ? 'not valid JSON' : undefined)}
      >
        <textarea name="type_criteria" value={text} onChange={(e) => setText(e.target.value)} rows={2} />
      </Field>
      {criteria &&
        (count.error ? (
          <ErrorMessage error={count.error} />
        ) : (
          <p role="status" aria-live="polite">
            {count.data === undefined ? 'Counting…' : `${count.data.toLocaleString()} events of the last 7 days match.`}
          </p>
        ))}
      <button type="submit" disabled={save.isPending}>
        {type ? 'Save event type' : 'Create event type'}
      </button>
    </form>
  );
}

/**
 * Virtual event types: names for the events a query matches, usable in every filter, chart and
 * funnel step as `virtual_event_types:"Name"`. Created with a live count of what they match.
 */
export function VirtualEventTypes() {
  const types = useVirtualEventTypes();
  const remove = useDeleteVirtualEventType();
  const [editing, setEditing] = useState<string>();
  return (
    <section aria-label="Virtual event types">
      <TypeForm onDone={() => undefined} />
      <ErrorMessage error={remove.error} />
      {types.isPending ? (
        <Loading label="Loading event types…" />
      ) : types.error ? (
        <ErrorMessage error={types.error} />
      ) : types.data.length === 0 ? (
        <EmptyState title="No virtual event types yet">
          <p>
            Name a kind of event above, for example <em>Order placed</em> for <code>request.verb:POST AND request.route:"/orders"</code>.
          </p>
        </EmptyState>
      ) : (
        <table className="event-table" aria-label="Event types">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col">Which events</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {types.data.map((type) =>
              editing === type._id ? (
                <tr key={type._id}>
                  <td colSpan={4}>
                    <TypeForm type={type} onDone={() => setEditing(undefined)} />
                  </td>
                </tr>
              ) : (
                <tr key={type._id}>
                  <td>{type.name}</td>
                  <td>{type.description ?? ''}</td>
                  <td>
                    <code>{criteriaText(type.criteria)}</code>
                  </td>
                  <td>
                    <button type="button" className="secondary" onClick={() => setEditing(type._id)} aria-label={`Edit ${type.name}`}>
                      Edit
                    </button>{' '}
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => {
                        if (window.confirm(`Delete the event type ${type.name}?`)) remove.mutate(type._id);
                      }}
                      aria-label={`Delete ${type.name}`}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}
