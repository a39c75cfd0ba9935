import type { EmailTemplateDocument } from '../../schemas/resources/email-template';
import type { EmailPeriod } from './email-periods';
import { renderEmail } from './email-render';
import type { OutgoingEmail } from './email-transport';

/**
 * A template's message to one recipient, as the sender and the test endpoint both send it: subject
 * and body rendered with the recipient's profile, the period, the dynamic fields and the unsubscribe
 * page (a footer with it added when the body has none), and the one-click unsubscribe headers.
 */
export function templateMessage(input: {
  template: EmailTemplateDocument;
  to: string;
  /** The recipient's profile (what `{{user.…}}` reads). */
  user: Record<string, unknown>;
  companyId?: string | null;
  values: Readonly<Record<string, string>>;
  period: EmailPeriod;
  links: { page: string; oneClick: string };
}): Omit<OutgoingEmail, 'id' | 'tags'> {
  const { template, to, period, links } = input;
  const rendered = renderEmail(
    { subject: template.template.subject, html: withUnsubscribeFooter(template.content.html) },
    {
      ...input.values,
      user: { ...input.user, email: to },
      company: input.companyId ? { company_id: input.companyId } : undefined,
      period: { key: period.key, start: period.start.toISOString(), end: period.end.toISOString() },
      template: { name: template.name },
      unsubscribe_url: links.page,
    },
  );
  return {
    from: template.addresses.from,
    to,
    cc: template.addresses.cc,
    bcc: template.addresses.bcc,
    subject: rendered.subject,
    html: rendered.html,
    headers: { 'List-Unsubscribe': `<${links.oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/** Every message carries an unsubscribe link: the template's own `{{unsubscribe_url}}`, or a footer added here. */
function withUnsubscribeFooter(html: string): string {
  if (/\{\{\{?\s*unsubscribe_url\s*\}?\}\}/.test(html)) return html;
  const footer =
    '<p style="font-size:12px;color:#667085;margin-top:24px">You receive this because of your use of our API. <a href="{{unsubscribe_url}}">Unsubscribe</a></p>';
  return /<\/body>/i.test(html) ? html.replace(/<\/body>/i, `${footer}</body>`) : `${html}${footer}`;
}
