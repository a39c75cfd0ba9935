import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { Field } from '../../../components/field';
import { fieldProblem } from '../../../lib/api-error';
import { useCohortChoices } from '../../../lib/cohort-names';
import { useSaveEmailTemplate, type EmailTemplate, type EmailTemplateInput } from '../api/templates';

type DynamicField = NonNullable<EmailTemplateInput['dynamic_fields']>[number];
const AGGREGATORS: readonly DynamicField['aggregator'][] = ['sum', 'avg', 'min', 'max', 'terms'];
const PERIODS = [
  { value: '1d', label: 'Daily' },
  { value: '1w', label: 'Weekly' },
  { value: '1M', label: 'Monthly' },
];
const STARTER_HTML = '<p>Hello {{name}},</p>\n<p>Your team made {{calls}} API calls this week.</p>';

const addresses = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

/**
 * Creates or edits an email template: subject and sender, the cohorts it goes to, how often, the
 * HTML body with a live preview (sandboxed), and dynamic fields (a usage figure per recipient,
 * written into the body as `{{token}}`). A new template is a draft until it is activated.
 */
export function EmailTemplateEditor({ template, onSaved }: { template?: EmailTemplate; onSaved: (id: string) => void }) {
  const save = useSaveEmailTemplate();
  const cohorts = useCohortChoices();
  const [name, setName] = useState(template?.name ?? '');
  const [subject, setSubject] = useState(template?.template.subject ?? '');
  const [from, setFrom] = useState(template?.addresses.from ?? '');
  const [cc, setCc] = useState((template?.addresses.cc ?? []).join(', '));
  const [cohortIds, setCohortIds] = useState<string[]>((template?.cohorts ?? []).map((c) => c.id));
  const [period, setPeriod] = useState(template?.period ?? '1w');
  const [html, setHtml] = useState(template?.content.html ?? STARTER_HTML);
  const [fields, setFields] = useState<DynamicField[]>([...(template?.dynamic_fields ?? [])]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = (cohorts.data ?? []).filter((cohort) => cohortIds.includes(cohort.id));
    const input: EmailTemplateInput = {
      name: name.trim(),
      state: template?.state ?? 0,
      period,
      addresses: { from: from.trim(), cc: addresses(cc), bcc: [...(template?.addresses.bcc ?? [])] },
      cohorts: chosen.map((cohort) => ({ id: cohort.id, type: cohort.type })),
      template: { subject, editor: 'html', design: {} },
      content: { html, chunks: {} },
      dynamic_fields: fields.map((field) => ({ ...field, token: field.token.trim(), field: field.field.trim() })),
    };
    save.mutate({ ...(template ? { id: template._id } : {}), template: input }, { onSuccess: (saved) => onSaved(saved._id) });
  };
  const problem = (field: string) => fieldProblem(save.error, field);
  const setField = (index: number, next: DynamicField) => setFields((all) => all.map((field, i) => (i === index ? next : field)));

  return (
    <form className="email-editor" onSubmit={submit} aria-label={template ? 'Edit email template' : 'New email template'} noValidate>
      <div className="inline-form">
        <Field label="Name" problem={problem('name')}>
          <input name="template_name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Subject" problem={problem('template.subject')}>
          <input name="subject" value={subject} onChange={(e) => setSubject(e.target.value)} size={40} />
        </Field>
      </div>
      <div className="inline-form">
        <Field label="From" problem={problem('addresses.from')}>
          <input name="from" value={from} onChange={(e) => setFrom(e.target.value)} placeholder="usage@example.com" />
        </Field>
        <Field label="Cc (comma-separated)" problem={problem('addresses.cc') ?? problem('addresses.cc[0]')}>
          <input name="cc" value={cc} onChange={(e) => setCc(e.target.value)} />
        </Field>
        <Field label="How often" problem={problem('period')}>
          <select name="period" value={period} onChange={(e) => setPeriod(e.target.value)}>
            {PERIODS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
            {!PERIODS.some((p) => p.value === period) && <option value={period}>Every {period}</option>}
          </select>
        </Field>
      </div>
      <fieldset>
        <legend>Sent to the members of</legend>
        {(cohorts.data ?? []).length === 0 && <p className="muted">No cohorts yet: create one under Cohorts.</p>}
        {(cohorts.data ?? []).map((cohort) => (
          <label key={cohort.id} className="toggle">
            <input
              type="checkbox"
              name="cohort_ids"
              value={cohort.id}
              checked={cohortIds.includes(cohort.id)}
              onChange={() => setCohortIds((ids) => (ids.includes(cohort.id) ? ids.filter((id) => id !== cohort.id) : [...ids, cohort.id]))}
            />{' '}
            {cohort.name} ({cohort.type})
          </label>
        ))}
        {problem('cohorts') && (
          <p className="field-problem" role="alert">
            {problem('cohorts')}
          </p>
        )}
      </fieldset>
      <fieldset>
        <legend>Dynamic fields</legend>
        {fields.map((field, i) => (
          <div className="inline-form" key={i}>
            <Field label={`Token ${i + 1}`} problem={problem(`dynamic_fields[${i}].token`)}>
              <input value={field.token} onChange={(e) => setField(i, { ...field, token: e.target.value })} size={12} />
            </Field>
            <Field label={`Event field ${i + 1}`} problem={problem(`dynamic_fields[${i}].field`)}>
              <input value={field.field} onChange={(e) => setField(i, { ...field, field: e.target.value })} />
            </Field>
            <Field label={`Aggregation ${i + 1}`}>
              <select value={field.aggregator} onChange={(e) => setField(i, { ...field, aggregator: e.target.value as DynamicField['aggregator'] })}>
                {AGGREGATORS.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </select>
            </Field>
            <button type="button" className="secondary" onClick={() => setFields((all) => all.filter((_, j) => j !== i))}>
              Remove field {i + 1}
            </button>
          </div>
        ))}
        <button type="button" className="secondary" onClick={() => setFields((all) => [...all, { token: '', field: 'weight', aggregator: 'sum' }])}>
          Add a dynamic field
        </button>
      </fieldset>
      <div className="email-body-editor">
        <Field label="Body (HTML; {{token}} is filled per recipient)" problem={problem('content.html')}>
          <textarea name="html" value={html} onChange={(e) => setHtml(e.target.value)} rows={10} />
        </Field>
        <iframe title="Live preview" sandbox="" srcDoc={html} className="email-preview" />
      </div>
      <ErrorMessage error={save.error} />
      <button type="submit" disabled={save.isPending}>
        {template ? 'Save template' : 'Create template'}
      </button>
    </form>
  );
}
