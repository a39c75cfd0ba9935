import { EmailTemplateDocument } from '../../schemas/resources/email-template';
import type { EmailSendRecord } from '../../schemas/resources/email-send';
import { StoredCohort } from '../../schemas/governance';
import { appRulesPartition } from '../resources/keys';
import { COHORT_PREFIX } from '../management/cohorts';
import { EMAIL_TEMPLATE_PREFIX } from './email-templates';
import { resourceKey, type ResourceStore } from '../resources/resource-store';
import type { SigningKeyProvider } from '../management-tokens/signing-key';
import type { SearchableIndex } from '../search/port';
import { mapWithConcurrency } from '../shared/concurrency';
import { dynamicValues, type DynamicValues } from './dynamic-fields';
import { lastClosedPeriod, type EmailPeriod } from './email-periods';
import { templateRecipients, type Recipient } from './email-recipients';
import { cohortMemberInput, sourcesForOneRun, type CohortSources } from '../cohorts/cohort-members';
import type { EmailSendStore, EmailTenant } from './email-send-store';
import type { EmailTransport, SendOutcome } from './email-transport';
import { SEND_TAG, sendTagValue } from './ses-events';
import { templateMessage } from './template-message';
import { unsubscribeLinks } from './unsubscribe-links';

/**
 * The behavioural email sender: for every active template (state 1) of every app, the last period
 * that is over (or "once"), each member of its cohorts with an address gets one message, rendered
 * with the member's profile and dynamic fields. Each (template, period, recipient) is claimed in the
 * store before its message is sent, so a second sender, a retry or a restart never sends it twice.
 */

export interface EmailSenderDeps extends CohortSources {
  readonly resources: ResourceStore;
  readonly sends: EmailSendStore;
  readonly transport: EmailTransport;
  readonly signingKey: SigningKeyProvider;
  /** The management API's URL: unsubscribe links point there. */
  readonly publicBaseUrl: string;
  readonly now?: () => Date;
  /** Apps to send for; default every app with an email template. */
  readonly tenants?: () => Promise<EmailTenant[]>;
}

export interface EmailSenderSettings {
  /** A claim older than this whose sender never recorded an outcome is settled (sent if provable, else unconfirmed). Default 10 minutes. */
  readonly staleClaimMs?: number;
  /** Messages in flight at once. */
  readonly concurrency?: number;
}

/** Test hooks: a fault thrown at a point of a send simulates the sender stopping there. */
export interface EmailSenderHooks {
  readonly beforeSend?: (record: EmailSendRecord) => void;
  readonly afterSend?: (record: EmailSendRecord) => void;
}

export interface EmailRunSummary {
  templates: number;
  recipients: number;
  sent: number;
  retrying: number;
  failed: number;
  unconfirmed: number;
  suppressed: number;
  /** Recipients already settled for the period by an earlier run. */
  alreadyDone: number;
  problems: { org_id: string; app_id: string; template_id: string; message: string }[];
}

/** Runs that may try a message refused for now before it is `failed`. */
export const MAX_EMAIL_ATTEMPTS = 5;
const DEFAULT_STALE_CLAIM_MS = 10 * 60_000;

export async function runEmailSender(sources: EmailSenderDeps, settings: EmailSenderSettings = {}, hooks: EmailSenderHooks = {}): Promise<EmailRunSummary> {
  const deps = sourcesForOneRun(sources);
  const summary: EmailRunSummary = {
    templates: 0,
    recipients: 0,
    sent: 0,
    retrying: 0,
    failed: 0,
    unconfirmed: 0,
    suppressed: 0,
    alreadyDone: 0,
    problems: [],
  };
  for (const tenant of await (deps.tenants ?? (() => tenantsWithTemplates(deps.resources)))()) {
    for (const template of await activeTemplates(deps.resources, tenant)) {
      summary.templates += 1;
      try {
        await sendTemplate(deps, settings, hooks, tenant, template, summary);
      } catch (error) {
        // One template's trouble (a cohort's criteria, a dynamic field's aggregation) must not stop the others.
        summary.problems.push({
          org_id: tenant.orgId,
          app_id: tenant.appId,
          template_id: template._id,
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
  return summary;
}

async function sendTemplate(
  deps: EmailSenderDeps,
  settings: EmailSenderSettings,
  hooks: EmailSenderHooks,
  tenant: EmailTenant,
  template: EmailTemplateDocument,
  summary: EmailRunSummary,
): Promise<void> {
  const now = deps.now?.() ?? new Date();
  const period = lastClosedPeriod(template.period, now);
  // A period that was over before the template existed is not this template's to report on.
  if (period.key !== 'once' && period.end.getTime() <= Date.parse(template.created_at)) return;
  const scope = { org_id: tenant.orgId, app_id: tenant.appId };
  const cohorts = await cohortsOf(deps.resources, tenant, template);
  // Who is settled for this period is read once: they are neither claimed again nor given dynamic fields.
  const earlier = await deps.sends.periodRecords(tenant, template._id, period.key);
  const staleMs = settings.staleClaimMs ?? DEFAULT_STALE_CLAIM_MS;
  const done = (userId: string) => {
    const record = earlier.get(userId);
    return record !== undefined && record.status !== 'retrying' && !(record.status === 'sending' && now.getTime() - Date.parse(record.claimed_at) >= staleMs);
  };
  const { recipients, done: alreadyDone, problems } = await templateRecipients(await cohortMemberInput(deps, scope, now), cohorts, done);
  for (const message of problems) summary.problems.push({ org_id: tenant.orgId, app_id: tenant.appId, template_id: template._id, message });
  summary.recipients += recipients.length + alreadyDone;
  summary.alreadyDone += alreadyDone;
  if (recipients.length === 0) return;
  const values = await valuesByMember(deps.index, scope, template, recipients, period);
  await mapWithConcurrency(recipients, settings.concurrency ?? 8, async (recipient) => {
    const outcome = await sendOnce(
      deps,
      settings,
      hooks,
      tenant,
      template,
      period,
      recipient,
      values.get(`${recipient.member.kind}:${recipient.member.id}`) ?? {},
    );
    summary[outcome] += 1;
  });
}

type Tally = 'sent' | 'retrying' | 'failed' | 'unconfirmed' | 'suppressed' | 'alreadyDone';

/** One recipient's message for the period: claimed, sent, recorded; or what an earlier run left, settled. */
async function sendOnce(
  deps: EmailSenderDeps,
  settings: EmailSenderSettings,
  hooks: EmailSenderHooks,
  tenant: EmailTenant,
  template: EmailTemplateDocument,
  period: EmailPeriod,
  recipient: Recipient,
  values: DynamicValues,
): Promise<Tally> {
  const now = deps.now?.() ?? new Date();
  const key = { templateId: template._id, periodKey: period.key, userId: recipient.userId };
  // Rendered before the claim: a template that fails to render leaves no claim behind to read as "unconfirmed".
  const links = unsubscribeLinks(
    deps.publicBaseUrl,
    { typ: 'email_unsubscribe', org_id: tenant.orgId, app_id: tenant.appId, template_id: template._id, email: recipient.email },
    await deps.signingKey(),
  );
  const message = templateMessage({ template, to: recipient.email, user: recipient.profile, companyId: recipient.companyId, values, period, links });
  const claim = await deps.sends.claim(
    tenant,
    key,
    {
      period_start: period.key === 'once' ? null : period.start.toISOString(),
      period_end: period.key === 'once' ? null : period.end.toISOString(),
      company_id: recipient.companyId,
      to: recipient.email,
    },
    now,
  );
  let record = claim.record;
  if (!claim.claimed) {
    if (record.status === 'sending' && now.getTime() - Date.parse(record.claimed_at) >= (settings.staleClaimMs ?? DEFAULT_STALE_CLAIM_MS)) {
      // Its sender stopped between claiming and recording: sent if the transport can prove it, else never resent.
      const delivered = (await deps.transport.delivered?.(record._id)) ?? false;
      await deps.sends.settle(
        tenant,
        record,
        delivered
          ? { status: 'sent', message_id: record._id }
          : {
              status: 'unconfirmed',
              error_code: 'sender_stopped',
              error_message:
                'The sender stopped after claiming this message and before recording its outcome; it may or may not have been sent, so it is not sent again.',
            },
        now,
      );
      return delivered ? 'sent' : 'unconfirmed';
    }
    if (record.status !== 'retrying') return 'alreadyDone';
    const again = await deps.sends.reclaim(tenant, record, now);
    if (!again) return 'alreadyDone';
    record = again;
  }
  if (await deps.sends.isSuppressed(tenant, template._id, recipient.email)) {
    await deps.sends.settle(tenant, record, { status: 'suppressed' }, now);
    return 'suppressed';
  }
  hooks.beforeSend?.(record);
  const outcome: SendOutcome = await deps.transport.send({ ...message, id: record._id, tags: { [SEND_TAG]: sendTagValue(tenant, key) } });
  hooks.afterSend?.(record);
  const settled =
    outcome.status === 'sent'
      ? { status: 'sent' as const, message_id: outcome.messageId, subject: message.subject }
      : {
          status: outcome.status === 'retrying' && record.attempts >= MAX_EMAIL_ATTEMPTS ? ('failed' as const) : outcome.status,
          error_code: outcome.code,
          error_message: outcome.message,
          subject: message.subject,
        };
  await deps.sends.settle(tenant, record, settled, deps.now?.() ?? new Date());
  return settled.status;
}

async function valuesByMember(
  index: SearchableIndex,
  scope: { org_id: string; app_id: string },
  template: EmailTemplateDocument,
  recipients: readonly Recipient[],
  period: EmailPeriod,
): Promise<Map<string, DynamicValues>> {
  const fields = template.dynamic_fields ?? [];
  const result = new Map<string, DynamicValues>();
  for (const kind of ['user', 'company'] as const) {
    const ids = [...new Set(recipients.filter((r) => r.member.kind === kind).map((r) => r.member.id))];
    for (const [id, values] of await dynamicValues(index, scope, kind, ids, fields, period, 'UTC')) result.set(`${kind}:${id}`, values);
  }
  return result;
}

async function cohortsOf(
  resources: ResourceStore,
  tenant: EmailTenant,
  template: EmailTemplateDocument,
): Promise<{ id: string; cohort: StoredCohort | undefined }[]> {
  const at = { partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: COHORT_PREFIX };
  const items = await resources.getItems(template.cohorts.map((ref) => resourceKey(at, ref.id)));
  const byId = new Map(items.map((item) => [String(item['_id']), item]));
  return template.cohorts.map((ref) => {
    const parsed = StoredCohort.safeParse(byId.get(ref.id));
    return { id: ref.id, cohort: parsed.success ? parsed.data : undefined };
  });
}

/** The app's templates in state 1 (active); a stored template that no longer parses is left out. */
export async function activeTemplates(resources: ResourceStore, tenant: EmailTenant): Promise<EmailTemplateDocument[]> {
  const templates: EmailTemplateDocument[] = [];
  let beforeId: string | undefined;
  do {
    const page = await resources.list(
      { partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: EMAIL_TEMPLATE_PREFIX },
      { take: 1000, ...(beforeId ? { beforeId } : {}) },
    );
    for (const item of page.items) {
      const parsed = EmailTemplateDocument.safeParse(item.document);
      if (parsed.success && parsed.data.state === 1) templates.push(parsed.data);
    }
    beforeId = page.nextBeforeId;
  } while (beforeId);
  return templates;
}

async function tenantsWithTemplates(resources: ResourceStore): Promise<EmailTenant[]> {
  const found: EmailTenant[] = [];
  for (const partition of await resources.partitionsHolding(EMAIL_TEMPLATE_PREFIX)) {
    const match = /^ORG#([^#]+)#APP#([^#]+)$/.exec(partition);
    if (match) found.push({ orgId: match[1]!, appId: match[2]! });
  }
  return found;
}
