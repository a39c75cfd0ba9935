import { AlertHistoryQuery, AlertPreviewRequest, AlertRuleCreate, AlertRuleUpdate } from '../../schemas/resources/alert-rule';
import { readDeliveryChannels } from '../billing/channels/channel-reader';
import { contextOf, crudOperations, readObjectBody, type CrudKind, type ResourceContext } from '../resources/crud-operations';
import { appRulesPartition } from '../resources/keys';
import { namedOperations, type ResourceOperationTable } from '../resources/resource-deps';
import type { StoredDocument } from '../resources/resource-store';
import { parseQuery, parseSearchRequest } from '../search/dsl';
import { expandQuery } from '../search/virtual-event-types/expand-query';
import { slackUrlProblem } from '../notifications/slack-target';
import { ValidationError, type FieldIssue } from '../shared/errors';
import { parseBody, parseQueryParams } from '../shared/invalid-input';
import { bucketValue, LATE_EVENTS, metricBody, windowSearch } from './alert-metrics';
import { isBillingMetric } from './billing-series';
import { ALERT_PREFIX, alertRuleOf, alertRules, deliverOpenEvents, emptySummary, evaluateAlert, type AlertRunDeps } from './alert-runner';
import type { AlertRuleDocument } from './alert-messages';

/** Alert rules an app may have: each costs one to five searches per evaluation. */
export const MAX_ALERTS_PER_APP = 100;

/**
 * Why a search would refuse an alert's events query, checked on save as a search checks it: the
 * DSL's rules (pattern caps included), then those of virtual event types (no range over their names).
 */
function eventsQueryProblem(query: unknown): string | undefined {
  try {
    expandQuery(parseQuery(query), new Map(), '');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The query parses, the webhook channels exist, and there is somewhere to send: each a 400 naming the member. */
async function checkAlert(deps: AlertRunDeps, ctx: ResourceContext, rule: StoredDocument): Promise<void> {
  const issues: FieldIssue[] = [];
  const problem = rule['query'] === undefined ? undefined : eventsQueryProblem(rule['query']);
  if (problem !== undefined) issues.push({ field: 'query', reason: problem });
  const channels = rule['channels'] as AlertRuleCreate['channels'];
  channels.slack_urls.forEach((url, i) => {
    const reason = slackUrlProblem(url, deps.webhookOptions);
    if (reason !== undefined) issues.push({ field: `channels.slack_urls[${i}]`, reason });
  });
  if (Object.values(channels).every((list) => list.length === 0))
    issues.push({ field: 'channels', reason: 'name at least one email, webhook channel, Slack URL or PagerDuty key' });
  const found = await readDeliveryChannels({ resources: deps.resources }, ctx.orgId, ctx.appId, channels.webhook_channel_ids, new Date(ctx.now));
  channels.webhook_channel_ids.forEach((id, i) => {
    if (!found.has(id)) issues.push({ field: `channels.webhook_channel_ids[${i}]`, reason: 'no billing channel with this id in this app' });
  });
  issues.push(...(await checkBillingMetric(deps, ctx, rule)));
  issues.sort((a, b) => a.field.localeCompare(b.field));
  if (issues.length > 0) throw new ValidationError(`Invalid alert: ${issues.map((i) => `${i.field} ${i.reason}`).join('; ')}`, issues);
}

/** Billing metrics read subscriptions: no query, grouping or past weeks; a quota alert names an enabled quota rule. */
/** What a billing metric's series are, where not a company. */
const SERIES_OF: Partial<Record<AlertRuleCreate['metric'], string>> = { balance_available: 'subscription', reconciliation_drift: 'meter and subscription' };

async function checkBillingMetric(deps: AlertRunDeps, ctx: ResourceContext, rule: StoredDocument): Promise<FieldIssue[]> {
  const metric = rule['metric'] as AlertRuleCreate['metric'];
  const issues: FieldIssue[] = [];
  if (!isBillingMetric(metric)) {
    if (rule['quota_rule_id'] !== undefined) issues.push({ field: 'quota_rule_id', reason: 'only a quota_used_percent alert names a quota rule' });
    return issues;
  }
  if (rule['query'] !== undefined) issues.push({ field: 'query', reason: `${metric} reads subscriptions, not events: no query` });
  if (rule['group_by'] !== undefined) issues.push({ field: 'group_by', reason: `${metric} has a series per ${SERIES_OF[metric] ?? 'company'} already` });
  if (metric === 'spend_cap_used_percent' && (rule['condition'] as AlertRuleCreate['condition']).operator !== 'above')
    issues.push({ field: 'condition.operator', reason: 'spend_cap_used_percent warns as spending rises: above' });
  if ((rule['condition'] as AlertRuleCreate['condition']).type !== 'static')
    issues.push({ field: 'condition.type', reason: `${metric} needs a fixed threshold` });
  if (metric === 'quota_used_percent') {
    const quotaRule = (await deps.governanceRules(ctx.orgId, ctx.appId)).find((r) => r._id === rule['quota_rule_id']);
    if (quotaRule?.model !== 'quota') issues.push({ field: 'quota_rule_id', reason: 'must name an enabled governance rule with model quota' });
  }
  return issues;
}

export function alertKind(deps: AlertRunDeps): CrudKind<AlertRuleCreate, AlertRuleUpdate> {
  return {
    noun: 'alert',
    prefix: ALERT_PREFIX,
    idParam: 'id',
    createSchema: AlertRuleCreate,
    updateSchema: AlertRuleUpdate,
    toStored: async (input, ctx, system) => {
      const rule = { ...system, ...input };
      await checkAlert(deps, ctx, rule);
      if ((await alertRules(deps.resources, ctx)).length >= MAX_ALERTS_PER_APP)
        throw new ValidationError(`An app may have at most ${MAX_ALERTS_PER_APP} alerts`, [
          { field: 'body', reason: `the app has ${MAX_ALERTS_PER_APP} alerts already` },
        ]);
      return rule;
    },
    // The schedule visits registered apps only; written with the rule, so no run sees one without the other.
    createExtra: (_stored, ctx) => [deps.registry.rememberItem(ctx.orgId, ctx.appId)],
    applyUpdate: async (current, input, ctx) => {
      const rule = { ...current, ...input };
      await checkAlert(deps, ctx, rule);
      return rule;
    },
  };
}

export interface AlertPreviewPoint {
  time: string;
  value: number | null;
  threshold: number | null;
}

/**
 * The metric in consecutive windows back from now, with the threshold each would be held to: one
 * date histogram, plus one per past week for a dynamic threshold.
 */
export async function previewAlert(deps: Pick<AlertRunDeps, 'index'>, scope: { org_id: string; app_id: string }, request: AlertPreviewRequest, now: Date) {
  const windowMs = request.window_minutes * 60_000;
  const end = now;
  const series = request.series && request.group_by ? { term: { [request.group_by]: request.series } } : undefined;
  const query = series ? { bool: { filter: [request.query ?? { match_all: {} }, series] } } : request.query;
  const histogram = async (shiftMs: number) => {
    const to = new Date(end.getTime() - shiftMs);
    const from = new Date(to.getTime() - request.windows * windowMs);
    const sub = (metricBody({ metric: request.metric }).aggs as { series: { aggs?: Record<string, unknown> } }).series.aggs;
    // Late events are charted by when they arrived, as the alert counts them.
    const where = windowSearch(request.metric, query, { start: from, end: to });
    const body = {
      size: 0,
      track_total_hits: false,
      query: where.query ?? { match_all: {} },
      aggs: {
        windows: {
          date_histogram: {
            field: request.metric === 'late_events' ? LATE_EVENTS.field : 'request.time',
            fixed_interval: `${request.window_minutes}m`,
            offset: `${to.getTime() % windowMs}ms`,
            min_doc_count: 0,
            extended_bounds: { min: from.getTime(), max: to.getTime() - 1 },
          },
          ...(sub ? { aggs: sub } : {}),
        },
      },
    };
    const response = await deps.index.search(
      { scope, kind: 'events', ...(where.range ? { range: where.range } : {}), timeZone: 'UTC', now },
      parseSearchRequest(body, 'events', { timeZone: 'UTC' }),
    );
    const buckets = (
      (response.aggregations?.['windows'] as { buckets?: ({ key: number } & Parameters<typeof bucketValue>[1])[] } | undefined)?.buckets ?? []
    ).filter((b) => b.key >= from.getTime() && b.key < to.getTime());
    return buckets.map((bucket) => ({ start: bucket.key + shiftMs, value: bucketValue(request.metric, bucket) }));
  };
  const current = await histogram(0);
  const condition = request.condition;
  const past: Map<number, number>[] = [];
  if (condition.type === 'dynamic')
    for (let week = 1; week <= condition.weeks; week++)
      past.push(new Map((await histogram(week * 7 * 86_400_000)).flatMap((p) => (p.value === null ? [] : [[p.start, p.value] as const]))));
  return {
    points: current.map(({ start, value }): AlertPreviewPoint => {
      let threshold: number | null = condition.type === 'static' ? condition.threshold : null;
      if (condition.type === 'dynamic') {
        const values = past.flatMap((week) => (week.has(start) ? [week.get(start)!] : []));
        const baseline = values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
        threshold = baseline === null ? null : condition.operator === 'above' ? baseline * condition.factor : baseline / condition.factor;
      }
      return { time: new Date(start + windowMs).toISOString(), value, threshold };
    }),
  };
}

export function alertOperations(deps: AlertRunDeps): ResourceOperationTable {
  const kind = alertKind(deps);
  const ruleOf = async (ctx: ResourceContext, id: string): Promise<AlertRuleDocument> => {
    const rule = alertRuleOf(id, await deps.resources.get({ partition: appRulesPartition(ctx.orgId, ctx.appId), prefix: ALERT_PREFIX }, id, 'alert'));
    if (!rule)
      throw new ValidationError(`The stored alert ${id} no longer validates: save it again with a full body`, [
        { field: 'id', reason: 'the stored alert does not validate' },
      ]);
    return rule;
  };
  return {
    ...namedOperations('alerts', crudOperations(kind, { store: deps.resources, ...(deps.now ? { now: deps.now } : {}) })),
    /** GET /~/alerts/{id}/history: firings and resolves, newest first, with each channel's outcome. */
    'alerts.history': async (request, caller) => {
      const ctx = contextOf(request, caller, deps.now?.() ?? new Date());
      const query = parseQueryParams(AlertHistoryQuery, request.query);
      const id = request.pathParams.id ?? '';
      await ruleOf(ctx, id);
      if (query.before !== undefined && !query.before.startsWith(`ALERTEVENT#${id}#`))
        throw new ValidationError('before is the next_before of an earlier page of this alert', [
          { field: 'before', reason: 'not a position in this alert’s history' },
        ]);
      const page = await deps.alerts.history(ctx, id, query.take, query.before);
      return {
        status: 200,
        body: { events: page.events.map(({ sk: _sk, ...event }) => event), ...(page.next_before ? { next_before: page.next_before } : {}) },
      };
    },
    /** POST /~/alerts/{id}/evaluate: "run now": evaluates this minute's window at once and delivers what it fires. */
    'alerts.evaluate': async (request, caller) => {
      const ctx = contextOf(request, caller, deps.now?.() ?? new Date());
      const rule = await ruleOf(ctx, request.pathParams.id ?? '');
      const summary = emptySummary();
      // The readings answered are the ones judged: a second read could see events the judgement did not.
      const readings = (await evaluateAlert(deps, ctx, rule, summary, { force: true })) ?? new Map();
      await deliverOpenEvents(deps, ctx, rule, summary);
      const series = [...readings].slice(0, 100).map(([id, reading]) => ({ series: id, ...reading }));
      const { fired, resolved, delivered, failed } = summary;
      return { status: 200, body: { fired, resolved, delivered, failed, series } };
    },
    /** POST /~/alerts/preview: the metric and its threshold over recent windows, to chart before saving. */
    'alerts.preview': async (request, caller) => {
      const ctx = contextOf(request, caller, deps.now?.() ?? new Date());
      const body = parseBody(AlertPreviewRequest, readObjectBody(request));
      if (isBillingMetric(body.metric))
        throw new ValidationError(
          `${body.metric} is read from subscriptions as they are now: it has no past windows to chart; run the alert to see each value`,
          [{ field: 'metric', reason: 'billing metrics have no history to preview' }],
        );
      const problem = body.query === undefined ? undefined : eventsQueryProblem(body.query);
      if (problem !== undefined) throw new ValidationError('Invalid query', [{ field: 'query', reason: problem }]);
      return { status: 200, body: await previewAlert(deps, { org_id: ctx.orgId, app_id: ctx.appId }, body, new Date(ctx.now)) };
    },
  };
}
