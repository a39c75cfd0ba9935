import { createHash } from 'node:crypto';
import { AlertRuleCreate, type AlertEvent } from '../../schemas/resources/alert-rule';
import { readDeliveryChannels } from '../billing/channels/channel-reader';
import type { ClientOptions } from '../billing/providers/client-options';
import type { EmailTransport } from '../emails/email-transport';
import { deliverToChannels, isFinal, pendingChannels, type DeliveryTally } from '../notifications/channel-outcomes';
import { emailSender, pagerDutySender, slackSender, webhookSender } from '../notifications/channel-senders';
import type { AppRegistry } from '../resources/app-registry';
import { appRulesPartition } from '../resources/keys';
import type { ResourceStore } from '../resources/resource-store';
import { withinTime } from '../search/abortable';
import type { SearchableIndex } from '../search/port';
import { withQuerySignal } from '../search/query-signal';
import { mapWithConcurrency } from '../shared/concurrency';
import { QueryTimeoutError } from '../shared/errors';
import { isAdditive, judge, type SeriesReading } from './alert-metrics';
import { isBillingMetric, readAlertSeries, type BillingSeriesDeps } from './billing-series';
import { alertEmail, alertPagerDutyEvent, alertSlackText, alertWebhookBody, channelKeys, secretOf, type AlertRuleDocument } from './alert-messages';
import type { AlertStore, AlertTenant, SeriesState, StoredAlertEvent } from './alert-store';

/**
 * Alert evaluation: every run visits the apps with alerts; each enabled alert whose interval has
 * passed is evaluated once per tick (the run claims the window), each series' crossing recorded once
 * as a firing or a resolve, and every event with channels left is delivered (channel-outcomes.ts:
 * one message per event and channel, across retries and crashes).
 */

export const ALERT_PREFIX = 'ALERT';

export interface AlertRunDeps extends BillingSeriesDeps {
  readonly resources: ResourceStore;
  readonly alerts: AlertStore;
  readonly registry: AppRegistry;
  readonly index: SearchableIndex;
  readonly emailTransport: EmailTransport;
  readonly emailFrom?: string;
  readonly webhookOptions?: ClientOptions;
  /** PagerDuty's Events API v2 URL (tests point it at a receiver). */
  readonly pagerDutyUrl?: string;
  /** How long one rule's reading may take before it is stopped (default ALERT_RULE_BUDGET_MS). */
  readonly ruleBudgetMs?: number;
  readonly now?: () => Date;
}

/** One rule's reading of its window: past it the rule's queries are stopped and the run moves on. */
export const ALERT_RULE_BUDGET_MS = 20_000;
/** Apps whose rules are evaluated side by side, so one tenant's slow rules do not hold the others'. */
const APPS_IN_FLIGHT = 4;

export interface AlertRunSummary extends DeliveryTally {
  alerts: number;
  evaluated: number;
  fired: number;
  resolved: number;
  problems: { org_id: string; app_id: string; alert_id: string; message: string }[];
}

export const emptySummary = (): AlertRunSummary => ({ alerts: 0, evaluated: 0, fired: 0, resolved: 0, delivered: 0, failed: 0, problems: [] });

export async function runAlerts(deps: AlertRunDeps): Promise<AlertRunSummary> {
  const summary = emptySummary();
  await mapWithConcurrency(await deps.registry.list(), APPS_IN_FLIGHT, async (app) => {
    const tenant = { orgId: app.org_id, appId: app.app_id };
    const rules = await alertRules(deps.resources, tenant);
    if (rules.length === 0) await deps.registry.forgetListed(app);
    for (const rule of rules) {
      summary.alerts += 1;
      try {
        if (rule.state === 1) await evaluateAlert(deps, tenant, rule, summary, { force: false });
        await deliverOpenEvents(deps, tenant, rule, summary);
      } catch (error) {
        summary.problems.push({
          org_id: tenant.orgId,
          app_id: tenant.appId,
          alert_id: rule._id,
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }
  });
  return summary;
}

/** A stored alert as a rule; undefined when it no longer validates (written by another version). */
export function alertRuleOf(id: string, document: Record<string, unknown>): AlertRuleDocument | undefined {
  const { _id, org_id, app_id, created_at, modified_at, ...fields } = document;
  const parsed = AlertRuleCreate.safeParse(fields);
  return parsed.success ? { ...parsed.data, _id: id } : undefined;
}

/** The app's alert rules that parse (a stored one that does not is skipped). */
export async function alertRules(resources: ResourceStore, tenant: AlertTenant): Promise<AlertRuleDocument[]> {
  const found: AlertRuleDocument[] = [];
  let beforeId: string | undefined;
  do {
    const page = await resources.list(
      { partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: ALERT_PREFIX },
      { take: 1000, ...(beforeId ? { beforeId } : {}) },
    );
    for (const { id, document } of page.items) {
      const rule = alertRuleOf(id, document);
      if (rule) found.push(rule);
    }
    beforeId = page.nextBeforeId;
  } while (beforeId);
  return found;
}

/**
 * Evaluates the window ending at this minute, when the alert's interval has passed since the last
 * (or at once with `force`: "run now"); a run that loses the claim to another leaves it. Answers
 * the readings it judged (undefined when it did not evaluate).
 */
export async function evaluateAlert(
  deps: AlertRunDeps,
  tenant: AlertTenant,
  rule: AlertRuleDocument,
  summary: AlertRunSummary,
  options: { force: boolean },
): Promise<Map<string, SeriesReading> | undefined> {
  const now = deps.now?.() ?? new Date();
  // A scheduled run takes whole minutes (one window per tick, claimed); "run now" takes the window up to this instant.
  const windowEnd = options.force ? now : new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const last = await deps.alerts.lastWindowEnd(tenant, rule._id);
  if (last !== undefined && !options.force && windowEnd.getTime() - Date.parse(last) < rule.interval_minutes * 60_000) return undefined;
  if (!(await deps.alerts.claimWindow(tenant, rule._id, last, windowEnd))) return undefined;
  summary.evaluated += 1;
  const scope = { org_id: tenant.orgId, app_id: tenant.appId };
  const budgetMs = deps.ruleBudgetMs ?? ALERT_RULE_BUDGET_MS;
  const readings = await withinTime(
    budgetMs,
    () => new QueryTimeoutError(`The alert ${rule._id} took over ${budgetMs} ms to read its window and was stopped`),
    (signal) => readAlertSeries({ ...deps, index: withQuerySignal(deps.index, signal) }, scope, rule, windowEnd, now),
  );
  const states = await deps.alerts.series(tenant, rule._id);
  // A firing series missing from this window: an additive metric is 0 there, which may resolve it; a
  // billing series (a subscription or company no longer watched) resolves without a value.
  const additive = isAdditive(rule.metric);
  const condition = rule.condition;
  for (const [series, state] of states) {
    if (state.status !== 'firing' || readings.has(series)) continue;
    if (isBillingMetric(rule.metric)) readings.set(series, { value: null, threshold: null, breaching: false });
    else if (additive && condition.type === 'static')
      readings.set(series, { value: 0, threshold: condition.threshold, breaching: judge(condition, 0, condition.threshold) });
    // 0 never exceeds a multiple of a past mean; below one it may well be, so that waits for a value.
    else if (additive && condition.operator === 'above') readings.set(series, { value: 0, threshold: null, breaching: false });
  }
  for (const [series, reading] of readings) {
    const state = states.get(series);
    const kind = nextKind(rule, state, reading, windowEnd);
    if (!kind) continue;
    const at = now.toISOString();
    const firedAt = kind === 'fired' ? at : (state?.last_fired_at ?? at);
    const event: AlertEvent = {
      event_id: `alert_${createHash('sha256').update([rule._id, series, kind, firedAt].join('\u001f')).digest('hex').slice(0, 32)}`,
      alert_id: rule._id,
      kind,
      series,
      value: reading.value,
      threshold: reading.threshold,
      at,
      fired_at: firedAt,
      window_start: new Date(windowEnd.getTime() - rule.window_minutes * 60_000).toISOString(),
      window_end: windowEnd.toISOString(),
      channels: pendingChannels(channelKeys(rule.channels), now),
    };
    if (await deps.alerts.transition(tenant, state, event)) summary[kind] += 1;
  }
  return readings;
}

/** Fires a series crossing its threshold (unless it fired within the cooldown); resolves one back from it. */
function nextKind(rule: AlertRuleDocument, state: SeriesState | undefined, reading: SeriesReading, windowEnd: Date): 'fired' | 'resolved' | undefined {
  const firing = state?.status === 'firing';
  if (reading.breaching === true && !firing) {
    const cooling = state?.last_fired_at && windowEnd.getTime() - Date.parse(state.last_fired_at) < rule.cooldown_minutes * 60_000;
    return cooling ? undefined : 'fired';
  }
  if (reading.breaching === false && firing) return 'resolved';
  return undefined;
}

export async function deliverOpenEvents(deps: AlertRunDeps, tenant: AlertTenant, rule: AlertRuleDocument, tally: DeliveryTally): Promise<void> {
  const now = () => deps.now?.() ?? new Date();
  for (const event of await deps.alerts.openEvents(tenant, rule._id)) {
    const webhookIds = Object.keys(event.channels)
      .filter((key) => key.startsWith('webhook:'))
      .map((key) => key.slice('webhook:'.length));
    const webhooks =
      webhookIds.length > 0 ? await readDeliveryChannels({ resources: deps.resources }, tenant.orgId, tenant.appId, webhookIds, now()) : new Map();
    const outcomes = await deliverToChannels(
      event.channels,
      async (key) => senderFor(deps, tenant, rule, event, key, webhooks),
      (channel, from, next) => deps.alerts.setChannel(tenant, event, channel, from, next),
      now,
      tally,
    );
    if (Object.values(outcomes).every(isFinal)) await deps.alerts.close(tenant, event);
  }
}

function senderFor(
  deps: AlertRunDeps,
  tenant: AlertTenant,
  rule: AlertRuleDocument,
  event: StoredAlertEvent,
  key: string,
  webhooks: Map<string, Parameters<typeof webhookSender>[0]>,
) {
  const kind = key.slice(0, key.indexOf(':'));
  const target = key.slice(key.indexOf(':') + 1);
  if (kind === 'email') return emailSender(deps.emailTransport, deps.emailFrom, { id: `${event.event_id}-${target}`, to: target, ...alertEmail(rule, event) });
  if (kind === 'webhook') return webhookSender(webhooks.get(target), target, event.event_id, alertWebhookBody(tenant, rule, event), deps.webhookOptions);
  const secret = secretOf(rule.channels, key);
  if (secret === undefined) return { problem: `the alert no longer has the ${kind} channel ${target}` };
  if (kind === 'slack') return slackSender(secret, alertSlackText(rule, event), deps.webhookOptions);
  return pagerDutySender(alertPagerDutyEvent(secret, rule, event), deps.pagerDutyUrl, deps.webhookOptions);
}
