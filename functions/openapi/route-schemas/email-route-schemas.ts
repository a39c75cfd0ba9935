import * as z from 'zod';
import { EmailSendRecord, EmailSendsQuery, EmailTestRequest, UnsubscribeRequest } from '../../../schemas/resources/email-send';
import { NEXT_PAGE, named, type RouteSchema } from './route-schema';

/** Behavioural emails beyond the templates' CRUD: test messages, the sends log, unsubscribe links. */

const EmailSendSchema = named('EmailSend', EmailSendRecord);
const UnsubscribeAnswer = named('Unsubscribed', z.object({ email: z.string(), unsubscribed: z.enum(['template', 'all']), template_id: z.string() }));

export const emailSchemas: Record<string, RouteSchema> = {
  'emailTemplates.test': {
    description:
      'Renders the template for one user (`user_id`: their profile and their events of the last closed period) or with sample values, and sends it now to `to` through the sender\'s transport, with "[Test] " before the subject. Not recorded as a send; unsubscribes do not apply.',
    params: { id: "The template's id." },
    body: EmailTestRequest,
    responseStatus: 200,
    response: z.object({
      to: z.string(),
      subject: z.string(),
      transport: z.enum(['ses', 'smtp', 'outbox']),
      status: z.enum(['sent', 'retrying', 'failed', 'unconfirmed']),
      message_id: z.string().optional(),
      error_code: z.string().optional(),
      error_message: z.string().optional(),
    }),
    errors: [404, 410],
  },
  'emailTemplates.sends': {
    description:
      "The template's sends log: one record per period and recipient (status sending, sent, retrying, failed, unconfirmed, suppressed or bounced), newest period first.",
    params: { id: "The template's id." },
    query: EmailSendsQuery,
    responseStatus: 200,
    response: z.array(EmailSendSchema),
    responseHeaders: NEXT_PAGE,
    errors: [404, 410],
  },
  'emails.unsubscribe.read': {
    description:
      "What an unsubscribe link names: the address, the template, and whether the address already left it. The link's signed token is the credential (401 when forged).",
    params: { token: 'The token of the link in the email.' },
    responseStatus: 200,
    response: z.object({ email: z.string(), template_id: z.string(), template_name: z.string().optional(), unsubscribed_from_template: z.boolean() }),
    errors: [401, 404],
  },
  'emails.unsubscribe': {
    description:
      "Unsubscribes the link's address from its template, or with `all: true` from every email of the app; mail clients' RFC 8058 one-click POST (form `List-Unsubscribe=One-Click`) unsubscribes from the template. Later sends to it are recorded as `suppressed`.",
    params: { token: 'The token of the link in the email.' },
    body: UnsubscribeRequest,
    bodyOptional: true,
    bodyMediaTypes: ['application/json', 'application/x-www-form-urlencoded'],
    responseStatus: 200,
    response: UnsubscribeAnswer,
    errors: [401, 404],
  },
};
