import type { ApiSchema } from '../../../lib/api-types';
import { useMutation, useQuery } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import type { components } from '../../../lib/api-schema';
import { useApi } from '../../../lib/api-context';
import { keysetPage, LIST_PAGE_SIZE, useKeysetPages } from '../../../lib/keyset-pages';

/** 0 draft (never sent), 1 active (sent to its cohorts), 2 paused. */
export type EmailTemplateState = 0 | 1 | 2;

export type EmailTemplate = ApiSchema<'EmailTemplate'>;

export type EmailSendStatus = 'sending' | 'sent' | 'retrying' | 'failed' | 'unconfirmed' | 'suppressed' | 'bounced';

/** One record of a template's sends log: a (period, recipient) and what became of it. */
export interface EmailSend {
  readonly _id: string;
  readonly period_key: string;
  readonly period_start: string | null;
  readonly user_id: string;
  readonly to: string;
  readonly status: EmailSendStatus;
  readonly attempts: number;
  readonly error_code?: string;
  readonly error_message?: string;
  readonly updated_at: string;
}

/** The app's email templates, newest first, a page at a time. */
export function useEmailTemplatePages() {
  const api = useApi();
  return useKeysetPages<EmailTemplate>(['email-templates', 'pages'], async (beforeId) =>
    keysetPage<EmailTemplate>(
      await api.GET('/~/emails/templates', { params: { query: { take: LIST_PAGE_SIZE, ...(beforeId ? { before_id: beforeId } : {}) } } }),
    ),
  );
}

export function useEmailTemplate(id: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['email-templates', id],
    queryFn: async () => dataOf(await api.GET('/~/emails/templates/{id}', { params: { path: { id } } })),
  });
}

/** A template's sends log, newest period first, a page at a time; `status` narrows it. */
export function useEmailSendPages(id: string, status: EmailSendStatus | undefined) {
  const api = useApi();
  return useKeysetPages<EmailSend>(['email-templates', id, 'sends', status ?? 'all'], async (beforeId) =>
    keysetPage<EmailSend>(
      await api.GET('/~/emails/templates/{id}/sends', {
        params: { path: { id }, query: { take: LIST_PAGE_SIZE, ...(status ? { status } : {}), ...(beforeId ? { before_id: beforeId } : {}) } },
      }),
    ),
  );
}

/** Activates, pauses or returns a template to draft. */
export function useSetTemplateState(id: string) {
  return useApiMutation(['email-templates'], async (api, state: EmailTemplateState) =>
    dataOf(await api.POST('/~/emails/templates/{id}', { params: { path: { id } }, body: { state } })),
  );
}

/** Sends the template now to one address, for a user or with sample values (not recorded as a send). */
export function useSendTestEmail(id: string) {
  const api = useApi();
  return useMutation({
    mutationFn: async (input: { to: string; user_id?: string }) =>
      dataOf(await api.POST('/~/emails/templates/{id}/test', { params: { path: { id } }, body: input })),
  });
}

export type EmailTemplateInput = components['schemas']['EmailTemplateCreate'];

/** Creates a template (a draft until activated), or updates one when `id` is given. */
export function useSaveEmailTemplate() {
  return useApiMutation(['email-templates'], async (api, input: { id?: string; template: EmailTemplateInput }) =>
    input.id
      ? dataOf(await api.POST('/~/emails/templates/{id}', { params: { path: { id: input.id } }, body: input.template }))
      : dataOf(await api.POST('/~/emails/templates', { body: input.template })),
  );
}
