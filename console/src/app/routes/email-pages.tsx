import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorMessage } from '../../components/error-message';
import { PageHeader } from '../../components/page-header';
import { useEmailTemplate, useSetTemplateState } from '../../features/emails/api/templates';
import { EmailPreview } from '../../features/emails/components/email-preview';
import { EmailTemplateEditor } from '../../features/emails/components/email-template-editor';
import { EmailSendsLog } from '../../features/emails/components/email-sends-log';
import { EmailTemplatesList, STATE_NAMES } from '../../features/emails/components/email-templates-list';
import { periodText } from '../../features/emails/utils/period-text';
import { TestEmailForm } from '../../features/emails/components/test-email-form';
import { QueryState } from '../../components/query-state';

export function EmailTemplatesPage() {
  return (
    <>
      <PageHeader title="Emails">
        <Link to="/emails/new">New template</Link>
      </PageHeader>
      <EmailTemplatesList />
    </>
  );
}

/** A template: its state (activate, pause), its body, a test send and its sends log. */
export function EmailTemplatePage() {
  const { templateId = '' } = useParams();
  const template = useEmailTemplate(templateId);
  const setState = useSetTemplateState(templateId);
  const [editing, setEditing] = useState(false);
  if (!template.isSuccess) return <QueryState query={template} loading="Loading the template…" />;
  const { state } = template.data;
  return (
    <>
      <PageHeader title={template.data.name}>
        <span>
          {STATE_NAMES[state]}, {periodText(template.data.period)}
        </span>
        {state !== 1 && (
          <button type="button" onClick={() => setState.mutate(1, { onSuccess: () => void template.refetch() })} disabled={setState.isPending}>
            Activate
          </button>
        )}
        {state === 1 && (
          <button
            type="button"
            className="secondary"
            onClick={() => setState.mutate(2, { onSuccess: () => void template.refetch() })}
            disabled={setState.isPending}
          >
            Pause
          </button>
        )}
        {!editing && (
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
      </PageHeader>
      <ErrorMessage error={setState.error} />
      {editing ? <EmailTemplateEditor template={template.data} onSaved={() => setEditing(false)} /> : <EmailPreview template={template.data} />}
      <section aria-label="Test send">
        <h2>Send a test</h2>
        <TestEmailForm templateId={templateId} />
      </section>
      <section aria-label="Sends">
        <h2>Sends log</h2>
        <EmailSendsLog templateId={templateId} />
      </section>
    </>
  );
}

export function NewEmailTemplatePage() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="New email template">
        <Link to="/emails">All templates</Link>
      </PageHeader>
      <EmailTemplateEditor onSaved={(id) => void navigate(`/emails/${encodeURIComponent(id)}`)} />
    </>
  );
}
