import type { AlertRunDeps } from '../alerts/alert-runner';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { ClientOptions } from '../billing/providers/client-options';
import { runCohortNotifications, type NotificationRunSummary } from '../cohort-notifications/cohort-notifier';
import { runEmailSender, type EmailRunSummary, type EmailSenderHooks, type EmailSenderSettings } from '../emails/email-sender';
import { sesTransport, type EmailTransport } from '../emails/email-transport';
import type { SigningKeyProvider } from '../management-tokens/signing-key';
import type { SearchableIndex } from '../search/port';
import { cohortSources } from './cohort-sources';
import { governanceBillingFacts } from './governance-billing-facts';
import { queryTimeIndex } from './query-time-index';
import type { ServiceStores } from './service-stores';
import { driftOfApp } from '../billing/reconcile/reconciliation';

/** Behavioural emails wired from the stores: the transport the settings name, and the sender. */

/**
 * The Lambdas' transport: SES v2, through the stack's configuration set (bounces and complaints).
 * The client is made at the first send: the management Lambda sends only test messages, and making
 * an SDK client would otherwise cost every one of its cold starts.
 */
export function sesEmailTransport(region: string, configurationSet?: string): EmailTransport {
  let transport: EmailTransport | undefined;
  const made = () => (transport ??= sesTransport(new SESv2Client({ region }), configurationSet));
  return { name: 'ses', send: (email) => made().send(email) };
}

export function emailSender(
  stores: ServiceStores,
  options: {
    index: SearchableIndex;
    signingKey: SigningKeyProvider;
    transport: EmailTransport;
    publicBaseUrl: string;
    settings?: EmailSenderSettings;
    hooks?: EmailSenderHooks;
    now?: () => Date;
  },
): () => Promise<EmailRunSummary> {
  const deps = {
    resources: stores.resources,
    sends: stores.emailSends,
    // Dynamic fields and cohorts may name virtual event types: they mean what they mean everywhere.
    ...cohortSources(stores, options.index),
    transport: options.transport,
    signingKey: options.signingKey,
    publicBaseUrl: options.publicBaseUrl,
    // The sender's clock decides which period is over (tests and `--at` run it as of another time).
    now: options.now ?? stores.now,
  };
  return () => runEmailSender(deps, options.settings, options.hooks);
}

/** Cohort notifications wired from the stores: changes recorded in the resources table, sent by webhook and email. */
export function cohortNotifier(
  stores: ServiceStores,
  options: { index: SearchableIndex; transport: EmailTransport; emailFrom?: string; webhookOptions?: ClientOptions; now?: () => Date },
): () => Promise<NotificationRunSummary> {
  const deps = {
    resources: stores.resources,
    watch: stores.cohortWatch,
    ...cohortSources(stores, options.index),
    emailTransport: options.transport,
    ...(options.emailFrom ? { emailFrom: options.emailFrom } : {}),
    ...(options.webhookOptions ? { webhookOptions: options.webhookOptions } : {}),
    now: options.now ?? stores.now,
  };
  return () => runCohortNotifications(deps);
}

/** Alert evaluation and delivery (alerts/alert-runner.ts) over the stores: one run. */
export function alertRunDeps(
  stores: ServiceStores,
  options: { index: SearchableIndex; transport: EmailTransport; emailFrom?: string; webhookOptions?: ClientOptions; pagerDutyUrl?: string; now?: () => Date },
): AlertRunDeps {
  return {
    resources: stores.resources,
    alerts: stores.alerts,
    registry: stores.alertingApps,
    index: queryTimeIndex(stores, options.index),
    billing: governanceBillingFacts(stores, options.index),
    governanceRules: (orgId, appId) => stores.rules.enabledRules(orgId, appId),
    reconciliationDrift: (scope) => driftOfApp(stores.resources, { orgId: scope.org_id, appId: scope.app_id }),
    emailTransport: options.transport,
    ...(options.emailFrom ? { emailFrom: options.emailFrom } : {}),
    ...(options.webhookOptions ? { webhookOptions: options.webhookOptions } : {}),
    ...(options.pagerDutyUrl ? { pagerDutyUrl: options.pagerDutyUrl } : {}),
    now: options.now ?? stores.now,
  };
}
