import { renderEmail, type RenderedEmail } from '../emails/email-render';
import { createHash } from 'node:crypto';
import type { AlertChannels, AlertEvent, AlertRuleCreate } from '../../schemas/resources/alert-rule';
import type { PagerDutyEvent } from '../notifications/channel-senders';

/** What an alert event says on each kind of channel, and the keys of its channels. */

export type AlertRuleDocument = AlertRuleCreate & { readonly _id: string };

const short = (secret: string) => createHash('sha256').update(secret).digest('hex').slice(0, 12);

/**
 * The channels of an event, keyed by kind: emails and webhook channel ids as they are, Slack URLs
 * and PagerDuty keys by a hash (they are secrets; the history shows the keys).
 */
export function channelKeys(channels: AlertChannels): string[] {
  return [
    ...channels.emails.map((email) => `email:${email}`),
    ...channels.webhook_channel_ids.map((id) => `webhook:${id}`),
    ...channels.slack_urls.map((url) => `slack:${short(url)}`),
    ...channels.pagerduty_routing_keys.map((key) => `pagerduty:${short(key)}`),
  ];
}

/** The Slack URL or PagerDuty key a channel key stands for, in the rule as it is now. */
export function secretOf(channels: AlertChannels, key: string): string | undefined {
  const [kind, hash] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
  const list = kind === 'slack' ? channels.slack_urls : kind === 'pagerduty' ? channels.pagerduty_routing_keys : [];
  return list.find((secret) => short(secret) === hash);
}

const format = (value: number | null) => (value === null ? 'no value' : Number.isInteger(value) ? String(value) : value.toFixed(2));
const who = (event: AlertEvent) => (event.series === '*' ? 'all events' : event.series);

export function alertSummary(rule: AlertRuleDocument, event: AlertEvent): string {
  const verb = event.kind === 'fired' ? 'fired' : 'resolved';
  return `${rule.name} ${verb} for ${who(event)}: ${rule.metric} ${format(event.value)} (threshold ${format(event.threshold)}) over ${rule.window_minutes} min to ${event.window_end}`;
}

/** The signed webhook's body: the event id is the one receivers deduplicate by. */
export function alertWebhookBody(tenant: { orgId: string; appId: string }, rule: AlertRuleDocument, event: AlertEvent): Record<string, unknown> {
  return {
    id: event.event_id,
    type: `alert.${event.kind}`,
    created_at: event.at,
    data: {
      org_id: tenant.orgId,
      app_id: tenant.appId,
      alert: {
        id: rule._id,
        name: rule.name,
        metric: rule.metric,
        group_by: rule.group_by ?? null,
        condition: rule.condition,
        window_minutes: rule.window_minutes,
      },
      series: event.series,
      value: event.value,
      threshold: event.threshold,
      fired_at: event.fired_at,
      window: { start: event.window_start, end: event.window_end },
    },
  };
}

const EMAIL = {
  subject: '[{{state}}] {{name}} — {{who}}',
  html: '<p>{{summary}}</p>',
};

/** The event as an email (values escaped by the template engine). */
export function alertEmail(rule: AlertRuleDocument, event: AlertEvent): RenderedEmail {
  return renderEmail(EMAIL, { state: event.kind === 'fired' ? 'Alert' : 'Resolved', name: rule.name, who: who(event), summary: alertSummary(rule, event) });
}

export function alertSlackText(rule: AlertRuleDocument, event: AlertEvent): string {
  return `${event.kind === 'fired' ? ':rotating_light:' : ':white_check_mark:'} ${alertSummary(rule, event)}`;
}

/** A trigger or resolve of the incident of one firing (its dedup_key names the series and when it began). */
export function alertPagerDutyEvent(routingKey: string, rule: AlertRuleDocument, event: AlertEvent): PagerDutyEvent {
  const dedupKey = `alert:${rule._id}:${event.series}:${event.fired_at}`;
  if (event.kind === 'resolved') return { routing_key: routingKey, event_action: 'resolve', dedup_key: dedupKey };
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: dedupKey,
    payload: {
      summary: alertSummary(rule, event).slice(0, 1024),
      source: 'usage-analytics alerts',
      severity: 'error',
      custom_details: { series: event.series, value: event.value, threshold: event.threshold, window_start: event.window_start, window_end: event.window_end },
    },
  };
}
