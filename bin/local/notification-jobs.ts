import { runAlerts } from '../../functions/alerts/alert-runner';
import { alertRunDeps, cohortNotifier, emailSender } from '../../functions/composition-root/email-services';
import type { ServiceStores } from '../../functions/composition-root/service-stores';
import type { EmailSenderHooks, EmailSenderSettings } from '../../functions/emails/email-sender';
import type { EmailTransport } from '../../functions/emails/email-transport';
import type { SigningKeyProvider } from '../../functions/management-tokens/signing-key';
import type { SearchableIndex } from '../../functions/search/port';
import { startScheduledTask } from './scheduled-task';

/** The local runtime's options for the jobs that send: behavioural emails, cohort notifications and alerts. */
export interface NotificationJobOptions {
  readonly email?: { intervalMs?: number; settings?: EmailSenderSettings; hooks?: EmailSenderHooks; now?: () => Date };
  readonly cohortNotifications?: { intervalMs?: number; emailFrom?: string; now?: () => Date };
  readonly alerts?: { intervalMs?: number; pagerDutyUrl?: string; now?: () => Date };
}

/**
 * The timers of the local runtime's sending jobs, each also run on demand (`runOnce`). `defaultIntervalMs`
 * 0 turns the timers off unless an interval is given (shared emulators: tests run them themselves).
 */
export function startNotificationJobs(
  stores: ServiceStores,
  deps: {
    index: SearchableIndex;
    signingKey: SigningKeyProvider;
    transport: EmailTransport;
    publicBaseUrl: string;
    webhookAllowPrivateTargets: boolean;
    defaultIntervalMs: number | undefined;
    governanceRefreshMs: number;
    options: NotificationJobOptions;
    log: (line: string) => void;
  },
) {
  const { index, transport, options, log } = deps;
  const webhookOptions = { allowPrivateTargets: deps.webhookAllowPrivateTargets };
  const emailFrom = options.cohortNotifications?.emailFrom ?? 'notifications@localhost';
  const sendEmails = emailSender(stores, {
    index,
    signingKey: deps.signingKey,
    transport,
    publicBaseUrl: deps.publicBaseUrl,
    ...(options.email?.settings ? { settings: options.email.settings } : {}),
    ...(options.email?.hooks ? { hooks: options.email.hooks } : {}),
    ...(options.email?.now ? { now: options.email.now } : {}),
  });
  const emails = startScheduledTask(sendEmails, options.email?.intervalMs ?? deps.defaultIntervalMs ?? 60_000, {
    onResult: (summary) => {
      if (summary.sent + summary.failed + summary.unconfirmed + summary.retrying > 0)
        log(
          `emails: ${summary.sent} sent, ${summary.retrying} retrying, ${summary.failed} failed, ${summary.unconfirmed} unconfirmed, ${summary.suppressed} unsubscribed (${transport.name})`,
        );
      summary.problems.forEach((p) => log(`email template ${p.template_id} (${p.org_id}/${p.app_id}): ${p.message}`));
    },
    onError: (error) => log(`email run failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  const notify = cohortNotifier(stores, {
    index,
    transport,
    emailFrom,
    webhookOptions,
    ...(options.cohortNotifications?.now ? { now: options.cohortNotifications.now } : {}),
  });
  const cohortNotifications = startScheduledTask(notify, options.cohortNotifications?.intervalMs ?? deps.defaultIntervalMs ?? deps.governanceRefreshMs, {
    onResult: (summary) => {
      if (summary.notifications + summary.added + summary.removed > 0)
        log(
          `cohort notifications: ${summary.added} joined, ${summary.removed} left, ${summary.notifications} notifications, ${summary.delivered} delivered, ${summary.failed} failed`,
        );
      summary.problems.forEach((p) => log(`cohort ${p.cohort_id} (${p.org_id}/${p.app_id}): ${p.message}`));
    },
    onError: (error) => log(`cohort notifications failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  const evaluateAlerts = alertRunDeps(stores, {
    index,
    transport,
    emailFrom,
    webhookOptions,
    ...(options.alerts?.pagerDutyUrl ? { pagerDutyUrl: options.alerts.pagerDutyUrl } : {}),
    ...(options.alerts?.now ? { now: options.alerts.now } : {}),
  });
  const alerts = startScheduledTask(() => runAlerts(evaluateAlerts), options.alerts?.intervalMs ?? deps.defaultIntervalMs ?? 60_000, {
    onResult: (summary) => {
      if (summary.fired + summary.resolved + summary.delivered + summary.failed > 0)
        log(
          `alerts: ${summary.evaluated} evaluated, ${summary.fired} fired, ${summary.resolved} resolved, ${summary.delivered} delivered, ${summary.failed} failed`,
        );
      summary.problems.forEach((p) => log(`alert ${p.alert_id} (${p.org_id}/${p.app_id}): ${p.message}`));
    },
    onError: (error) => log(`alert run failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  return { emails, cohortNotifications, alerts };
}
