import { createHash } from 'node:crypto';
import { readDeliveryChannels } from '../billing/channels/channel-reader';
import type { ClientOptions } from '../billing/providers/client-options';
import { lastClosedPeriod } from '../emails/email-periods';
import type { EmailTransport } from '../emails/email-transport';
import { cohortMemberInput, forEachCohortMember, sourcesForOneRun, type CohortSources } from '../cohorts/cohort-members';
import type { ResourceStore } from '../resources/resource-store';
import type { CohortTenant, CohortWatchStore, NotificationBatch, PendingChange } from './cohort-watch-store';
import { deliverToChannels, isFinal } from '../notifications/channel-outcomes';
import { emailSender, webhookSender } from '../notifications/channel-senders';
import { notificationEmail, notificationEvent } from './notification-payload';
import { notificationCohorts, tenantsWithCohorts, type CohortNotificationTarget } from './notification-cohorts';

/**
 * Cohort notifications: each run looks at every cohort whose notification rule asks for additions or
 * removals, records who entered and left since the last look (each change once, in DynamoDB), and —
 * at most once per the rule's period — tells the cohort's channels in one notification: signed
 * webhooks (the billing channels' scheme, the batch id as event id, so a resend is recognised) and
 * emails (claimed before sending, never sent twice).
 */

export interface CohortNotifierDeps extends CohortSources {
  readonly resources: ResourceStore;
  readonly watch: CohortWatchStore;
  readonly emailTransport: EmailTransport;
  /** The sender of notification emails; none: email channels fail as not configured. */
  readonly emailFrom?: string;
  readonly webhookOptions?: ClientOptions;
  readonly now?: () => Date;
  readonly tenants?: () => Promise<CohortTenant[]>;
}

export interface NotificationRunSummary {
  cohorts: number;
  added: number;
  removed: number;
  notifications: number;
  delivered: number;
  failed: number;
  problems: { org_id: string; app_id: string; cohort_id: string; message: string }[];
}

/** Changes per notification (the rest go in the next one). */
export const MAX_CHANGES_PER_NOTIFICATION = 500;
/** Members a watched cohort may have; past it the cohort is not watched (the run says so). */
export const MAX_WATCHED_MEMBERS = 100_000;

export async function runCohortNotifications(sources: CohortNotifierDeps): Promise<NotificationRunSummary> {
  const deps = sourcesForOneRun(sources);
  const summary: NotificationRunSummary = { cohorts: 0, added: 0, removed: 0, notifications: 0, delivered: 0, failed: 0, problems: [] };
  for (const tenant of await (deps.tenants ?? (() => tenantsWithCohorts(deps.resources)))()) {
    for (const cohort of await notificationCohorts(deps.resources, tenant)) {
      summary.cohorts += 1;
      try {
        await watchCohort(deps, tenant, cohort, summary);
        await notify(deps, tenant, cohort, summary);
      } catch (error) {
        summary.problems.push({
          org_id: tenant.orgId,
          app_id: tenant.appId,
          cohort_id: cohort.id,
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
  return summary;
}

/** Who is in the cohort now against who was: each difference recorded once (the first look only records who is in). */
async function watchCohort(deps: CohortNotifierDeps, tenant: CohortTenant, cohort: CohortNotificationTarget, summary: NotificationRunSummary): Promise<void> {
  const now = deps.now?.() ?? new Date();
  const current = new Map<string, Record<string, unknown>>();
  const listed = await forEachCohortMember(
    await cohortMemberInput(deps, { org_id: tenant.orgId, app_id: tenant.appId }, now, MAX_WATCHED_MEMBERS),
    { cohort_type: cohort.type, criteria: cohort.criteria, time_zone: cohort.time_zone, week_starts_on: cohort.week_starts_on },
    cohort.fields.map(sourcePath),
    (id, source) => {
      current.set(id, Object.fromEntries(cohort.fields.map((field) => [field, valueAt(source, sourcePath(field))])));
    },
  );
  // A cut membership would read as departures of everyone past the cut: better not to look at all.
  if (listed === 'cut') throw new Error(`more than ${MAX_WATCHED_MEMBERS} members: not watched`);
  if (!(await deps.watch.watch(tenant, cohort.id))) {
    await deps.watch.writeBaseline(tenant, cohort.id, current, now);
    return;
  }
  const before = await deps.watch.members(tenant, cohort.id);
  for (const [id, fields] of current) {
    if (!before.has(id) && (await deps.watch.recordChange(tenant, cohort.id, id, 'added', fields, now, cohort.rule.send_on_addition))) summary.added += 1;
  }
  for (const [id, fields] of before) {
    if (!current.has(id) && (await deps.watch.recordChange(tenant, cohort.id, id, 'removed', fields, now, cohort.rule.send_on_removal))) summary.removed += 1;
  }
}

/** Finishes open notifications, then sends the pending changes when the period allows. */
async function notify(deps: CohortNotifierDeps, tenant: CohortTenant, cohort: CohortNotificationTarget, summary: NotificationRunSummary): Promise<void> {
  const open = await deps.watch.openBatches(tenant, cohort.id);
  for (const batch of open) await deliver(deps, tenant, cohort, batch, summary);
  if (open.length > 0) return;
  const pending = (await deps.watch.pendingChanges(tenant, cohort.id)).slice(0, MAX_CHANGES_PER_NOTIFICATION);
  if (pending.length === 0) return;
  const now = deps.now?.() ?? new Date();
  const watch = await deps.watch.watch(tenant, cohort.id);
  if (cohort.rule.period && watch?.last_batch_at) {
    // At most one notification per period: the changes wait until a period has passed since the last.
    const { start, end } = lastClosedPeriod(cohort.rule.period, now);
    if (now.getTime() - Date.parse(watch.last_batch_at) < end.getTime() - start.getTime()) return;
  }
  const sks = pending.map((change) => change.sk);
  const batchId = `cohort_${createHash('sha256').update(sks.join('\u001f')).digest('hex').slice(0, 32)}`;
  const batch = await deps.watch.claimBatch(tenant, cohort.id, batchId, sks, cohort.channels, now);
  summary.notifications += 1;
  await deliver(deps, tenant, cohort, batch, summary);
}

async function deliver(
  deps: CohortNotifierDeps,
  tenant: CohortTenant,
  cohort: CohortNotificationTarget,
  batch: NotificationBatch,
  summary: NotificationRunSummary,
): Promise<void> {
  const now = () => deps.now?.() ?? new Date();
  await deps.watch.assignChanges(tenant, batch.changes, batch.batch_id, now());
  const changes: PendingChange[] = await deps.watch.changesOf(tenant, batch.changes);
  const event = notificationEvent(tenant, cohort, batch, changes);
  const webhookIds = Object.keys(batch.channels).filter((channel) => !channel.includes('@'));
  const webhooks = webhookIds.length > 0 ? await readDeliveryChannels({ resources: deps.resources }, tenant.orgId, tenant.appId, webhookIds, now()) : new Map();
  const outcomes = await deliverToChannels(
    batch.channels,
    async (channel) =>
      channel.includes('@')
        ? emailSender(deps.emailTransport, deps.emailFrom, { id: `${batch.batch_id}-${channel}`, to: channel, ...notificationEmail(cohort, changes) })
        : webhookSender(webhooks.get(channel), channel, batch.batch_id, event, deps.webhookOptions),
    (channel, from, next) => deps.watch.setChannel(tenant, batch, channel, from, next),
    now,
    summary,
  );
  if (Object.values(outcomes).every(isFinal)) await deps.watch.closeBatch(tenant, batch, now());
}

/** Fields may name the profile kind first (`user.metadata.plan`), as governance variables do. */
const sourcePath = (field: string) => field.replace(/^(user|company)\./, '');

function valueAt(source: Record<string, unknown>, path: string): unknown {
  let value: unknown = source;
  for (const part of path.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
  return value ?? null;
}
