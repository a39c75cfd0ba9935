import { EmailSendsQuery, EmailTestRequest, UnsubscribeRequest } from '../../schemas/resources/email-send';
import { EmailTemplateDocument } from '../../schemas/resources/email-template';
import { contextOf, readObjectBody } from '../resources/crud-operations';
import { EMAIL_TEMPLATE_PREFIX } from './email-templates';
import { inApp, nextPageHeader } from '../resources/references';
import type { ResourceOperationTable } from '../resources/resource-deps';
import type { ResourceStore } from '../resources/resource-store';
import type { ManagementCaller } from '../management-tokens/management-auth';
import type { SigningKeyProvider } from '../management-tokens/signing-key';
import type { SearchableIndex } from '../search/port';
import { ValidationError } from '../shared/errors';
import { decodeBody } from '../shared/http/body';
import type { Operation } from '../shared/http/handler';
import { originOf } from '../shared/http/origin';
import type { HttpRequest } from '../shared/http/types';
import { dynamicValues } from './dynamic-fields';
import { lastClosedPeriod } from './email-periods';
import { templateMessage } from './template-message';
import { ALL_TEMPLATES, type EmailSendStore } from './email-send-store';
import type { EmailTransport } from './email-transport';
import { unsubscribeLinks } from './unsubscribe-links';
import { verifyUnsubscribeToken } from './unsubscribe-token';
import { parseBody, parseQueryParams } from '../shared/invalid-input';

export interface EmailOperationDeps {
  readonly resources: ResourceStore;
  readonly emailSends: EmailSendStore;
  readonly index: SearchableIndex;
  readonly signingKey: SigningKeyProvider;
  /** Where test messages go (the sender's transport). */
  readonly emailTransport: EmailTransport;
  readonly now?: () => Date;
}

const MAX_UNSUBSCRIBE_BODY_BYTES = 4_096;

/**
 * Email operations beyond the templates' CRUD: a test message of a template to one address now,
 * a template's sends log, and the unsubscribe links every message carries (open routes: the
 * link's signed token names the recipient and the template).
 */
export function emailOperations(deps: EmailOperationDeps): ResourceOperationTable & Record<string, Operation<ManagementCaller | undefined>> {
  const now = deps.now ?? (() => new Date());
  const templateOf = async (orgId: string, appId: string, id: string) =>
    EmailTemplateDocument.parse(await deps.resources.get(inApp({ orgId, appId }, EMAIL_TEMPLATE_PREFIX), id, 'email template'));

  return {
    'emailTemplates.test': async (request, caller) => {
      const at = now();
      const ctx = contextOf(request, caller, at);
      const input = parseBody(EmailTestRequest, readObjectBody(request));
      const template = await templateOf(ctx.orgId, ctx.appId, request.pathParams['id'] ?? '');
      const scope = { org_id: ctx.orgId, app_id: ctx.appId };
      const period = lastClosedPeriod(template.period, at);
      // Sample values where templates usually look (top level and metadata, as profiles from the SDKs have them).
      const sample = { name: 'Sample User', first_name: 'Sample', last_name: 'User', email: input.to };
      let user: Record<string, unknown> = { user_id: 'sample-user', ...sample, metadata: sample };
      let values: Record<string, string> = Object.fromEntries((template.dynamic_fields ?? []).map((field) => [field.token, `[${field.token}]`]));
      if (input.user_id !== undefined) {
        const profile = await deps.index.get(scope, 'users', input.user_id);
        if (!profile) throw new ValidationError(`No user ${input.user_id} to render the template for`, [{ field: 'user_id', reason: 'no such user' }]);
        user = { ...profile._source, user_id: input.user_id };
        values = (await dynamicValues(deps.index, scope, 'user', [input.user_id], template.dynamic_fields ?? [], period, 'UTC')).get(input.user_id) ?? {};
      }
      const links = unsubscribeLinks(
        originOf(request),
        { typ: 'email_unsubscribe', org_id: ctx.orgId, app_id: ctx.appId, template_id: template._id, email: input.to },
        await deps.signingKey(),
      );
      const message = templateMessage({ template, to: input.to, user, values, period, links });
      // Test messages go to the address given alone, marked as tests.
      const outcome = await deps.emailTransport.send({
        ...message,
        id: `test-${template._id}-${at.getTime()}`,
        cc: [],
        bcc: [],
        subject: `[Test] ${message.subject}`,
      });
      return {
        status: 200,
        body: {
          to: input.to,
          subject: `[Test] ${message.subject}`,
          transport: deps.emailTransport.name,
          ...(outcome.status === 'sent'
            ? { status: 'sent', message_id: outcome.messageId }
            : { status: outcome.status, error_code: outcome.code, error_message: outcome.message }),
        },
      };
    },

    'emailTemplates.sends': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const template = await templateOf(ctx.orgId, ctx.appId, request.pathParams['id'] ?? '');
      const { take, before_id: before, status } = parseQueryParams(EmailSendsQuery, request.query);
      const page = await deps.emailSends.list({ orgId: ctx.orgId, appId: ctx.appId }, template._id, {
        take,
        ...(before ? { before } : {}),
        ...(status ? { status } : {}),
      });
      return { status: 200, body: page.items, headers: nextPageHeader(page.next) };
    },

    'emails.unsubscribe.read': async (request) => {
      const claims = verifyUnsubscribeToken(request.pathParams['token'] ?? '', await deps.signingKey());
      const tenant = { orgId: claims.org_id, appId: claims.app_id };
      const name = await templateOf(claims.org_id, claims.app_id, claims.template_id).then(
        (t) => t.name,
        () => undefined,
      );
      return {
        status: 200,
        body: {
          email: claims.email,
          template_id: claims.template_id,
          ...(name === undefined ? {} : { template_name: name }),
          unsubscribed_from_template: await deps.emailSends.isSuppressed(tenant, claims.template_id, claims.email),
        },
      };
    },

    'emails.unsubscribe': async (request) => {
      const claims = verifyUnsubscribeToken(request.pathParams['token'] ?? '', await deps.signingKey());
      const input = parseBody(UnsubscribeRequest, unsubscribeBody(request));
      const scope = input.all ? ALL_TEMPLATES : claims.template_id;
      await deps.emailSends.unsubscribe({ orgId: claims.org_id, appId: claims.app_id }, scope, claims.email, now());
      return { status: 200, body: { email: claims.email, unsubscribed: input.all ? 'all' : 'template', template_id: claims.template_id } };
    },
  };
}

/** A JSON object, or the form body mail clients send for one-click unsubscribe (RFC 8058), or nothing. */
function unsubscribeBody(request: HttpRequest): unknown {
  const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const raw = decodeBody(request.rawBody, request.headers['content-encoding'], MAX_UNSUBSCRIBE_BODY_BYTES);
  if (raw.length === 0) return {};
  if (contentType === 'application/x-www-form-urlencoded' || contentType === 'multipart/form-data')
    return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
  return readObjectBody(request);
}
