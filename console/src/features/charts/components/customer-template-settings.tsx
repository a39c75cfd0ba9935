import { useState, type FormEvent } from 'react';
import { CompanyIdInput } from '../../../components/company-pickers';
import { ErrorMessage } from '../../../components/error-message';
import { useMintCustomerToken, useSaveTemplate, type CustomerToken } from '../api/customer-templates';

/** Fields a template most often binds to the customer; any field of the events may be named. */
const COMMON_FIELDS = ['company_id', 'user_id', 'subscription_id'];

const fieldsOf = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((field) => field.trim())
      .filter((field) => field !== ''),
  ),
];

/**
 * A workspace as a template for the API company's customers: which fields each customer's token
 * binds (its company_id, its users …) and whether the customer picks the time range; then try it as
 * one customer, and copy the server-side snippet that mints a customer's token.
 */
export function CustomerTemplateSettings({
  workspaceId,
  template,
}: {
  workspaceId: string;
  template: { dynamic_fields: string[]; dynamic_time?: boolean } | undefined;
}) {
  const save = useSaveTemplate(workspaceId);
  const [fields, setFields] = useState((template?.dynamic_fields ?? ['company_id']).join(', '));
  const [dynamicTime, setDynamicTime] = useState(template?.dynamic_time ?? true);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ dynamic_fields: fieldsOf(fields), dynamic_time: dynamicTime });
  };
  return (
    <details className="share-links" open={template !== undefined}>
      <summary>Template for customers</summary>
      <p className="muted">
        A template shows each of your customers this chart over its own events only: every dynamic field must equal the value its token binds.
      </p>
      <form className="inline-form" onSubmit={submit} aria-label="Template settings">
        <label>
          Dynamic fields (comma-separated; e.g. {COMMON_FIELDS.join(', ')})
          <input name="dynamic_fields" value={fields} onChange={(e) => setFields(e.target.value)} required />
        </label>
        <label className="toggle">
          <input type="checkbox" checked={dynamicTime} onChange={(e) => setDynamicTime(e.target.checked)} />
          Customers pick the time range
        </label>
        <button type="submit" disabled={save.isPending || fieldsOf(fields).length === 0}>
          {template ? 'Save the template' : 'Make it a template'}
        </button>
        {template && (
          <button type="button" className="secondary" disabled={save.isPending} onClick={() => save.mutate(null)}>
            Stop being a template
          </button>
        )}
      </form>
      <ErrorMessage error={save.error} />
      {template && <TryAsCustomer workspaceId={workspaceId} fields={template.dynamic_fields} />}
    </details>
  );
}

/** Mints a short-lived token for a chosen customer and shows its pages and the snippet that mints one server side. */
function TryAsCustomer({ workspaceId, fields }: { workspaceId: string; fields: string[] }) {
  const mint = useMintCustomerToken();
  const [companyId, setCompanyId] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [made, setMade] = useState<CustomerToken | undefined>();
  const others = fields.filter((field) => field !== 'company_id' && field !== 'subscription_id');
  const body = () => {
    const bound = Object.fromEntries(others.map((field) => [field, values[field]?.trim() ?? '']).filter(([, value]) => value !== ''));
    return {
      company_id: companyId.trim(),
      ...(values['subscription_id']?.trim() ? { subscription_id: values['subscription_id'].trim() } : {}),
      ...(Object.keys(bound).length > 0 ? { values: bound } : {}),
      templates: [workspaceId],
    };
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mint.mutate({ ...body(), expires_in: 3600 }, { onSuccess: (token) => setMade(token) });
  };
  const snippet = mintSnippet(window.location.origin, body());
  return (
    <section aria-label="Try as a customer">
      <h3>Try it as a customer</h3>
      <form className="inline-form" onSubmit={submit} aria-label="Try as a customer">
        <label>
          Company id
          <CompanyIdInput name="company_id" value={companyId} onChange={setCompanyId} required />
        </label>
        {fields.includes('subscription_id') && (
          <label>
            subscription_id
            <input value={values['subscription_id'] ?? ''} onChange={(e) => setValues({ ...values, subscription_id: e.target.value })} />
          </label>
        )}
        {others.map((field) => (
          <label key={field}>
            {field}
            <input name={`value_${field}`} value={values[field] ?? ''} onChange={(e) => setValues({ ...values, [field]: e.target.value })} required />
          </label>
        ))}
        <button type="submit" disabled={mint.isPending || companyId.trim() === ''}>
          {mint.isPending ? 'Minting…' : 'Open as this customer'}
        </button>
      </form>
      <ErrorMessage error={mint.error} />
      {made && (
        <p>
          <a href={made.templates_url} target="_blank" rel="noreferrer">
            This template as {made.company_id}
          </a>{' '}
          ·{' '}
          <a href={made.usage_url} target="_blank" rel="noreferrer">
            Usage and bill of {made.company_id}
          </a>{' '}
          <span className="muted">(the token works for an hour)</span>
        </p>
      )}
      <h4>Mint a token from your server</h4>
      <p className="muted">Your backend mints a token for its signed-in customer on each page load, with a management token that has read:public_workspaces.</p>
      <pre aria-label="Mint snippet">{snippet}</pre>
      <button type="button" className="secondary" onClick={() => void navigator.clipboard.writeText(snippet)}>
        Copy the snippet
      </button>
    </section>
  );
}

function mintSnippet(origin: string, body: Record<string, unknown>): string {
  const json = JSON.stringify({ ...body, company_id: body['company_id'] || '<the signed-in customer>' });
  return [
    `const answer = await fetch('${origin}/~/customer_tokens', {`,
    "  method: 'POST',",
    "  headers: { authorization: 'Bearer ' + process.env.MANAGEMENT_TOKEN, 'content-type': 'application/json' },",
    `  body: JSON.stringify(${json}),`,
    '});',
    'const { token, usage_url, templates_url } = await answer.json();',
    '// <iframe src={templates_url}> for this template, <iframe src={usage_url}> for the usage and bill',
  ].join('\n');
}
