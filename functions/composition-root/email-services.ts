import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { ClientOptions } from '../billing/providers/client-options';
import { runCohortNotifications, type NotificationRunSummary } from '../cohort-notifications/cohort-notifier';
import { runEmailSender, type EmailRunSummary, type EmailSenderHooks, type EmailSenderSettings } from '../emails/email-sender';
import { outboxTransport, sesTransport, smtpTransport, type EmailTransport } from '../emails/email-transport';
import type { SigningKeyProvider } from '../management-tokens/signing-key';
import type { SearchableIndex } from '../search/port';
import { queryTimeIndex } from './query-time-index';
import type { ServiceStores } from './service-stores';

/** Behavioural emails wired from the stores: the transport the settings name, and the sender. */

export interface EmailTransportSettings {
  /** `ses` on AWS; locally `smtp` when SMTP_URL is set, else `outbox`. */
  readonly kind: 'ses' | 'smtp' | 'outbox';
  readonly smtpUrl?: string;
  readonly outboxDir?: string;
  readonly region?: string;
  /** SES configuration set (bounce and complaint events), when the stack made one. */
  readonly sesConfigurationSet?: string;
}

export function emailTransport(settings: EmailTransportSettings): EmailTransport {
  if (settings.kind === 'ses') return sesTransport(new SESv2Client({ region: settings.region }), settings.sesConfigurationSet);
  if (settings.kind === 'smtp') {
    if (!settings.smtpUrl) throw new Error('the smtp email transport needs SMTP_URL');
    return smtpTransport(settings.smtpUrl);
  }
  if (!settings.outboxDir) throw new Error('the outbox email transport needs a folder');
  return outboxTransport(settings.outboxDir);
}

export function emailSender(
  stores: ServiceStores,
  options: { index: SearchableIndex; signingKey: SigningKeyProvider; transport: EmailTransport; publicBaseUrl: string; settings?: EmailSenderSettings; hooks?: EmailSenderHooks; now?: () => Date },
): () => Promise<EmailRunSummary> {
  const deps = {
    resources: stores.resources,
    sends: stores.emailSends,
    // Dynamic fields and cohorts may name virtual event types: they mean what they mean everywhere.
    index: queryTimeIndex(stores, options.index),
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
    index: queryTimeIndex(stores, options.index),
    emailTransport: options.transport,
    ...(options.emailFrom ? { emailFrom: options.emailFrom } : {}),
    ...(options.webhookOptions ? { webhookOptions: options.webhookOptions } : {}),
    now: options.now ?? stores.now,
  };
  return () => runCohortNotifications(deps);
}
