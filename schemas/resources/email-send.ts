import * as z from 'zod';
import { PageTake } from '../page-take';

/**
 * What the behavioural email sender records per (template, recipient, period): one record, claimed
 * before the message is sent, so nothing is sent twice (see docs/emails.md).
 *
 *   sending      claimed; the message is being sent (or the sender stopped mid-send: see unconfirmed)
 *   sent         the transport accepted it (SMTP 250, SES MessageId, or the outbox file written)
 *   retrying     refused for now before it was accepted (SMTP 4xx, connection refused, SES throttling): sent again by a later run
 *   failed       refused for good (SMTP 5xx, SES MessageRejected), or still refused after MAX_EMAIL_ATTEMPTS runs
 *   unconfirmed  the sender stopped between claiming and recording, or the transport's answer was lost (a timeout):
 *                it may or may not have gone out, so it is never sent again
 *   suppressed   the recipient unsubscribed (from this template or from all of the app's emails)
 *   bounced      the provider reported a bounce or complaint after accepting it (SES events)
 */
export const EmailSendStatus = z.enum(['sending', 'sent', 'retrying', 'failed', 'unconfirmed', 'suppressed', 'bounced']);
export type EmailSendStatus = z.infer<typeof EmailSendStatus>;

export const EmailSendRecord = z.object({
  /** `<template_id>/<period_key>/<user_id>`: the record's key, stable across runs. */
  _id: z.string(),
  template_id: z.string(),
  /** The period's start and length (`2026-11-16T00:00:00.000Z/1w`), or `once` for a template without a period. */
  period_key: z.string(),
  period_start: z.string().nullable(),
  period_end: z.string().nullable(),
  user_id: z.string(),
  /** The company of a company-cohort member. */
  company_id: z.string().nullable(),
  to: z.string(),
  subject: z.string().optional(),
  status: EmailSendStatus,
  attempts: z.int().min(0),
  /** The transport's id for the message (SMTP Message-ID, SES MessageId, the outbox file). */
  message_id: z.string().optional(),
  error_code: z.string().optional(),
  error_message: z.string().optional(),
  claimed_at: z.string(),
  updated_at: z.string(),
});
export type EmailSendRecord = z.infer<typeof EmailSendRecord>;

/** POST /~/emails/templates/{id}/test: one message to one address, now (not recorded as a member's send). */
export const EmailTestRequest = z.strictObject({
  to: z.email({ message: 'is not an email address' }).max(254),
  /** Render as for this user (their profile and events fill the template); default: sample values. */
  user_id: z.string().min(1).max(256).optional(),
});
export type EmailTestRequest = z.infer<typeof EmailTestRequest>;

/** POST /public/emails/unsubscribe/{token}: from this template (default) or from every email of the app. */
export const UnsubscribeRequest = z.strictObject({
  all: z.boolean().optional(),
  /** RFC 8058 one-click (`List-Unsubscribe=One-Click`, form-encoded by mail clients). */
  'List-Unsubscribe': z.literal('One-Click').optional(),
});

/** Claims of an unsubscribe link's token. */
export const UnsubscribeClaims = z.strictObject({
  typ: z.literal('email_unsubscribe'),
  org_id: z.string(),
  app_id: z.string(),
  template_id: z.string(),
  email: z.string(),
});
export type UnsubscribeClaims = z.infer<typeof UnsubscribeClaims>;

/** GET …/sends: a page of the log. `before_id` is the x-next-before-id of the page before (base64url of a record key). */
export const EmailSendsQuery = z.object({
  take: PageTake.default(50),
  before_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,1024}$/, 'must be the x-next-before-id of the page before')
    .optional()
    .meta({ description: 'The x-next-before-id of the previous page.' }),
  status: EmailSendStatus.optional().meta({ description: 'Only records in this status.' }),
});
