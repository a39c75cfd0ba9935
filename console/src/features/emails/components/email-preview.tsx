import { useCohortNames } from '../../../lib/cohort-names';
import type { EmailTemplate } from '../api/templates';

/**
 * The template's HTML as written (its `{{tokens}}` unfilled), in a sandboxed frame: no scripts,
 * no forms, no access to the console's page.
 */
export function EmailPreview({ template }: { template: EmailTemplate }) {
  const names = useCohortNames();
  return (
    <dl className="facts">
      <dt>Subject</dt>
      <dd>{template.template.subject}</dd>
      <dt>From</dt>
      <dd>{template.addresses.from}</dd>
      <dt>Cohorts</dt>
      <dd>{template.cohorts.map((cohort) => names.data?.get(cohort.id) ?? cohort.id).join(', ') || 'none'}</dd>
      <dt>Body</dt>
      <dd>
        <iframe title="Email body" sandbox="" srcDoc={template.content.html} className="email-preview" />
      </dd>
    </dl>
  );
}
