import { useId, useState } from 'react';
import { fieldClause, type PickableField } from '../lib/field-clauses';
import { useEventFields, useFieldValues } from '../lib/field-values';

/**
 * A field of the app's events, typed with suggestions from the fields its events hold (metadata keys
 * and virtual event types included). What is typed is taken as is, so any field the query syntax
 * reaches can be named.
 */
export function FieldInput({
  label,
  name,
  value,
  onChange,
  placeholder,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (field: string) => void;
  placeholder?: string;
}) {
  // The suggestions are asked for when the field is first focused, not with the page.
  const [wanted, setWanted] = useState(false);
  const fields = useEventFields(wanted);
  const listId = useId();
  return (
    <label>
      {label}
      <input
        name={name}
        list={listId}
        value={value}
        onFocus={() => setWanted(true)}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        autoComplete="off"
      />
      <datalist id={listId}>
        {(fields.data ?? []).map((field) => (
          <option key={field.name} value={field.name}>
            {field.type === 'virtual' ? 'virtual event type' : field.type}
          </option>
        ))}
      </datalist>
    </label>
  );
}

/**
 * Builds a filter clause by picking a field and one of its values from what the data holds (with
 * type-ahead), and hands it to `onPick` as query-string text (`action_name.raw:"Signed Up"`): the
 * query bar stays the advanced form. With `targets`, it also asks which filter the clause goes to.
 */
export function FilterPicker({ label, onPick, targets }: { label: string; onPick: (clause: string, target: number) => void; targets?: readonly string[] }) {
  const [fieldName, setFieldName] = useState('');
  const [value, setValue] = useState('');
  const [target, setTarget] = useState(0);
  // What its field input fetched once focused: a field typed before the list arrives is taken as a keyword.
  const fields = useEventFields(false);
  const field: PickableField | undefined =
    fieldName.trim() === '' ? undefined : (fields.data?.find((f) => f.name === fieldName.trim()) ?? { name: fieldName.trim(), type: 'keyword' });
  const values = useFieldValues(field, value);
  const listId = useId();
  const typed = value.trim().toLowerCase();
  const suggestions = (values.data ?? []).filter((v) => v.value.toLowerCase().includes(typed));
  const add = () => {
    if (!field || value.trim() === '') return;
    onPick(fieldClause(field, value.trim()), target);
    setValue('');
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: an inline row of inputs inside a form; a fieldset's border and legend do not fit it
    <div role="group" aria-label={label} className="filter-picker">
      <FieldInput
        label="Field"
        name="pick_field"
        value={fieldName}
        onChange={(name) => {
          setFieldName(name);
          setValue('');
        }}
        placeholder="action_name.raw"
      />
      <label>
        Value
        <input
          name="pick_value"
          list={listId}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          disabled={!field}
          autoComplete="off"
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <datalist id={listId}>
          {suggestions.map((v) => (
            <option key={v.value} value={v.value}>{`${v.count.toLocaleString()} events`}</option>
          ))}
        </datalist>
      </label>
      {targets && targets.length > 1 && (
        <label>
          Add to
          <select name="pick_target" value={target} onChange={(e) => setTarget(Number(e.target.value))}>
            {targets.map((name, i) => (
              <option key={name} value={i}>
                {name}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="button" className="secondary" onClick={add} disabled={!field || value.trim() === ''}>
        Add filter
      </button>
    </div>
  );
}
