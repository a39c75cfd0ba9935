import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { Field } from '../../../components/field';
import { FilterPicker } from '../../../components/filter-picker';
import { withQueryClause } from '../../../lib/field-clauses';
import { queryFromText, textOfQuery } from '../../../lib/query-text';
import { fieldProblem } from '../../../lib/api-error';
import { useQuotaRules, useSaveAlert, useWebhookChannels, type AlertPreviewRequest, type AlertRule, type AlertRuleInput } from '../api/alerts';
import { AlertChart } from './alert-chart';

type Metric = AlertRuleInput['metric'];
const METRICS: readonly [Metric, string][] = [
  ['count', 'events'],
  ['sum_weight', 'sum of weight'],
  ['error_rate', 'error rate (% of calls ≥ 400)'],
  ['avg_latency', 'average latency (ms)'],
  ['p50_latency', 'p50 latency (ms)'],
  ['p90_latency', 'p90 latency (ms)'],
  ['p99_latency', 'p99 latency (ms)'],
  ['unique_users', 'unique users'],
  ['unique_companies', 'unique companies'],
  ['late_events', 'late events (arrived over 5 min after their time)'],
  ['quota_used_percent', '% of quota used this billing period (per company)'],
  ['balance_available', 'prepaid balance left (per subscription)'],
  ['spend_cap_used_percent', "% of a customer's own spend cap spent (per company; its own warning threshold first)"],
  ['reconciliation_drift', 'usage the provider holds apart from what was reported (per meter and subscription, from the last reconciliation)'],
];
/** Read from subscriptions, not events: no query, grouping, past weeks or chart. */
const isBilling = (metric: Metric) =>
  metric === 'quota_used_percent' || metric === 'balance_available' || metric === 'spend_cap_used_percent' || metric === 'reconciliation_drift';

const lines = (text: string) =>
  text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The form's state, all text, as typed. */
interface Draft {
  name: string;
  enabled: boolean;
  query: string;
  metric: Metric;
  quotaRuleId: string;
  groupBy: '' | 'company_id' | 'user_id';
  window: string;
  interval: string;
  cooldown: string;
  conditionType: 'static' | 'dynamic';
  operator: 'above' | 'below';
  threshold: string;
  factor: string;
  weeks: string;
  minimum: string;
  emails: string;
  webhooks: string[];
  slack: string;
  pagerDuty: string;
}

function draftOf(alert: AlertRule | undefined): Draft {
  const condition = alert?.condition;
  return {
    name: alert?.name ?? '',
    enabled: (alert?.state ?? 1) === 1,
    query: alert?.query ? textOfQuery(alert.query) : '',
    metric: alert?.metric ?? 'count',
    quotaRuleId: alert?.quota_rule_id ?? '',
    groupBy: alert?.group_by ?? '',
    window: String(alert?.window_minutes ?? 5),
    interval: String(alert?.interval_minutes ?? 1),
    cooldown: String(alert?.cooldown_minutes ?? 0),
    conditionType: condition?.type ?? 'static',
    operator: condition?.operator ?? 'above',
    threshold: condition?.type === 'static' ? String(condition.threshold) : '',
    factor: condition?.type === 'dynamic' ? String(condition.factor) : '3',
    weeks: condition?.type === 'dynamic' ? String(condition.weeks ?? 2) : '2',
    minimum: condition?.type === 'dynamic' && condition.minimum !== undefined ? String(condition.minimum) : '',
    emails: (alert?.channels.emails ?? []).join(', '),
    webhooks: alert?.channels.webhook_channel_ids ?? [],
    slack: (alert?.channels.slack_urls ?? []).join('\n'),
    pagerDuty: (alert?.channels.pagerduty_routing_keys ?? []).join('\n'),
  };
}

/** The alert the draft describes; a message for `query` when its JSON does not parse. Numbers are sent as typed, for the API to judge. */
function inputOf(draft: Draft): AlertRuleInput | { queryProblem: string } {
  let query: Record<string, unknown> | undefined;
  if (draft.query.trim() !== '') {
    try {
      query = queryFromText(draft.query);
    } catch (error) {
      return { queryProblem: `not valid JSON: ${(error as Error).message}` };
    }
  }
  const condition: AlertRuleInput['condition'] =
    draft.conditionType === 'static'
      ? { type: 'static', operator: draft.operator, threshold: Number(draft.threshold) }
      : {
          type: 'dynamic',
          operator: draft.operator,
          factor: Number(draft.factor),
          weeks: Number(draft.weeks),
          ...(draft.minimum.trim() === '' ? {} : { minimum: Number(draft.minimum) }),
        };
  const billing = isBilling(draft.metric);
  return {
    name: draft.name.trim(),
    state: draft.enabled ? 1 : 0,
    ...(query && !billing ? { query } : {}),
    metric: draft.metric,
    ...(draft.metric === 'quota_used_percent' ? { quota_rule_id: draft.quotaRuleId } : {}),
    ...(draft.groupBy && !billing ? { group_by: draft.groupBy } : {}),
    window_minutes: Number(draft.window),
    interval_minutes: Number(draft.interval),
    cooldown_minutes: Number(draft.cooldown),
    condition,
    channels: {
      emails: lines(draft.emails),
      webhook_channel_ids: draft.webhooks,
      slack_urls: lines(draft.slack),
      pagerduty_routing_keys: lines(draft.pagerDuty),
    },
  };
}

/** What the chart previews for the draft, once its numbers read as numbers. */
function previewOf(input: AlertRuleInput | { queryProblem: string }): AlertPreviewRequest | undefined {
  if ('queryProblem' in input || isBilling(input.metric)) return undefined;
  const numbers = [input.window_minutes, input.condition.type === 'static' ? input.condition.threshold : input.condition.factor];
  if (numbers.some((n) => !Number.isFinite(n)) || input.window_minutes < 1) return undefined;
  return {
    metric: input.metric,
    window_minutes: input.window_minutes,
    condition: input.condition,
    windows: 48,
    ...(input.query ? { query: input.query } : {}),
  };
}

/** Creates or edits an alert: what it measures, when it fires, where it tells; its metric charted with the threshold as the fields change. */
export function AlertEditor({ alert, onSaved }: { alert?: AlertRule; onSaved: () => void }) {
  const save = useSaveAlert();
  const channels = useWebhookChannels();
  const quotaRules = useQuotaRules();
  const [draft, setDraft] = useState(() => draftOf(alert));
  const [queryProblem, setQueryProblem] = useState<string>();
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const input = inputOf(draft);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if ('queryProblem' in input) {
      setQueryProblem(input.queryProblem);
      return;
    }
    setQueryProblem(undefined);
    save.mutate({ ...(alert ? { id: alert._id } : {}), alert: input }, { onSuccess: onSaved });
  };
  const problem = (field: string) => (field === 'query' && queryProblem) || fieldProblem(save.error, field);
  return (
    <form className="rule-editor" onSubmit={submit} aria-label={alert ? 'Edit alert' : 'New alert'} noValidate>
      <div className="inline-form">
        <Field label="Name" problem={problem('name')}>
          <input name="alert_name" value={draft.name} onChange={(e) => set({ name: e.target.value })} />
        </Field>
        <label className="toggle">
          <input type="checkbox" name="alert_enabled" checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Enabled
        </label>
      </div>
      <fieldset>
        <legend>What it watches</legend>
        <div className="inline-form">
          <Field label="Metric" problem={problem('metric')}>
            <select name="alert_metric" value={draft.metric} onChange={(e) => set({ metric: e.target.value as Metric })}>
              {METRICS.map(([metric, label]) => (
                <option key={metric} value={metric}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          {draft.metric === 'quota_used_percent' && (
            <Field label="Quota rule" problem={problem('quota_rule_id')}>
              <select name="alert_quota_rule" value={draft.quotaRuleId} onChange={(e) => set({ quotaRuleId: e.target.value })}>
                <option value="">choose a governance quota rule</option>
                {(quotaRules.data ?? []).map((rule) => (
                  <option key={rule._id} value={rule._id}>
                    {rule.name}
                  </option>
                ))}
              </select>
            </Field>
          )}
          {!isBilling(draft.metric) && (
            <Field label="For" problem={problem('group_by')}>
              <select name="alert_group_by" value={draft.groupBy} onChange={(e) => set({ groupBy: e.target.value as Draft['groupBy'] })}>
                <option value="">all events together</option>
                <option value="company_id">each company</option>
                <option value="user_id">each user</option>
              </select>
            </Field>
          )}
          <Field label="Over the last (minutes)" problem={problem('window_minutes')}>
            <input name="alert_window" inputMode="numeric" value={draft.window} onChange={(e) => set({ window: e.target.value })} size={6} />
          </Field>
          <Field label="Checked every (minutes)" problem={problem('interval_minutes')}>
            <input name="alert_interval" inputMode="numeric" value={draft.interval} onChange={(e) => set({ interval: e.target.value })} size={6} />
          </Field>
        </div>
        {!isBilling(draft.metric) && (
          <>
            <Field label="Of events matching (terms such as request.verb:POST, or a search query as JSON; empty: all)" problem={problem('query')}>
              <textarea name="alert_query" value={draft.query} onChange={(e) => set({ query: e.target.value })} rows={2} />
            </Field>
            <FilterPicker label="Build a condition from the data" onPick={(clause) => set({ query: withQueryClause(draft.query, clause) })} />
          </>
        )}
      </fieldset>
      <fieldset>
        <legend>When it fires</legend>
        <div className="inline-form">
          <Field label="Threshold" problem={problem('condition.type')}>
            <select name="alert_condition" value={draft.conditionType} onChange={(e) => set({ conditionType: e.target.value as Draft['conditionType'] })}>
              <option value="static">a fixed value</option>
              <option value="dynamic">the same hour of past weeks</option>
            </select>
          </Field>
          <Field label="Fires when the value is" problem={problem('condition.operator')}>
            <select name="alert_operator" value={draft.operator} onChange={(e) => set({ operator: e.target.value as Draft['operator'] })}>
              <option value="above">above</option>
              <option value="below">below</option>
            </select>
          </Field>
          {draft.conditionType === 'static' ? (
            <Field label="Value" problem={problem('condition.threshold')}>
              <input name="alert_threshold" inputMode="decimal" value={draft.threshold} onChange={(e) => set({ threshold: e.target.value })} size={8} />
            </Field>
          ) : (
            <>
              <Field label="Times (factor)" problem={problem('condition.factor')}>
                <input name="alert_factor" inputMode="decimal" value={draft.factor} onChange={(e) => set({ factor: e.target.value })} size={5} />
              </Field>
              <Field label="Weeks back" problem={problem('condition.weeks')}>
                <input name="alert_weeks" inputMode="numeric" value={draft.weeks} onChange={(e) => set({ weeks: e.target.value })} size={3} />
              </Field>
              <Field label="And at least (optional)" problem={problem('condition.minimum')}>
                <input name="alert_minimum" inputMode="decimal" value={draft.minimum} onChange={(e) => set({ minimum: e.target.value })} size={6} />
              </Field>
            </>
          )}
          <Field label="Quiet after firing (minutes)" problem={problem('cooldown_minutes')}>
            <input name="alert_cooldown" inputMode="numeric" value={draft.cooldown} onChange={(e) => set({ cooldown: e.target.value })} size={6} />
          </Field>
        </div>
        {isBilling(draft.metric) ? (
          <p className="muted">Read from subscriptions as they are now: Run now shows each value.</p>
        ) : (
          <AlertChart request={previewOf(input)} />
        )}
      </fieldset>
      <fieldset>
        <legend>Where it tells</legend>
        <Field label="Emails (comma-separated)" problem={problem('channels.emails')}>
          <input name="alert_emails" value={draft.emails} onChange={(e) => set({ emails: e.target.value })} />
        </Field>
        {(channels.data ?? []).map((channel) => (
          <label className="toggle" key={channel._id}>
            <input
              type="checkbox"
              name="alert_webhooks"
              value={channel._id}
              checked={draft.webhooks.includes(channel._id)}
              onChange={() =>
                set({ webhooks: draft.webhooks.includes(channel._id) ? draft.webhooks.filter((id) => id !== channel._id) : [...draft.webhooks, channel._id] })
              }
            />{' '}
            Webhook: {channel.name}
          </label>
        ))}
        <Field label="Slack incoming webhook URLs (one per line)" problem={problem('channels.slack_urls')}>
          <textarea name="alert_slack" value={draft.slack} onChange={(e) => set({ slack: e.target.value })} rows={2} />
        </Field>
        <Field label="PagerDuty routing keys (one per line)" problem={problem('channels.pagerduty_routing_keys')}>
          <textarea name="alert_pagerduty" value={draft.pagerDuty} onChange={(e) => set({ pagerDuty: e.target.value })} rows={2} />
        </Field>
        {problem('channels') && !problem('channels.emails') && (
          <p className="field-problem" role="alert">
            {problem('channels')}
          </p>
        )}
      </fieldset>
      <ErrorMessage error={save.error} />
      <button type="submit" disabled={save.isPending}>
        {alert ? 'Save alert' : 'Create alert'}
      </button>
    </form>
  );
}
