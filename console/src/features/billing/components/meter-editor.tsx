import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '../../../components/error-message';
import { Field } from '../../../components/field';
import { fieldProblem } from '../../../lib/api-error';
import { useMeterChoices, usePreviewMeter, useSaveMeter, useSavedMeterPreview, type MeterInput, type Provider, type StoredMeter } from '../api/meters';
import { ChannelTest } from './channel-test';
import { MeterPreviewPanel } from './meter-preview';

const PROVIDERS: readonly Provider[] = ['webhook', 'stripe', 'chargebee', 'recurly', 'zuora'];
const DEFAULT_QUERY = '{\n  "query": { "match_all": {} }\n}';
/** What each provider's params need, as a starting point (the API checks them). */
const PARAMS_EXAMPLE: Record<Exclude<Provider, 'webhook'>, string> = {
  stripe: '{ "event_name": "api_calls" }',
  chargebee: '{ "item_price_id": "api-calls-USD-monthly" }',
  recurly: '{ "add_on_id": "api_calls" }',
  zuora: '{ "unit_of_measure": "API Calls", "charge_number": "C-00000001" }',
};

/** Creates or edits a billing meter: which events count, and the plan and destination it bills. */
export function MeterEditor({ meter, onSaved }: { meter?: StoredMeter; onSaved: (meter: StoredMeter) => void }) {
  const choices = useMeterChoices();
  const save = useSaveMeter();
  const saved = useSavedMeterPreview(meter?._id);
  const preview = usePreviewMeter();
  const params = meter?.billing_plan.params ?? {};
  const webhook = (params['webhook_params'] ?? {}) as { channel_ids?: string[]; custom_plan?: { plan_id?: string }; reporting?: { reporting_period?: string } };
  const [name, setName] = useState(meter?.name ?? '');
  const [slug, setSlug] = useState(meter?.slug ?? '');
  const [status, setStatus] = useState<MeterInput['status']>(meter?.status ?? 'active');
  const [query, setQuery] = useState(meter ? JSON.stringify(meter.es_query, null, 2) : DEFAULT_QUERY);
  const [provider, setProvider] = useState<Provider>(meter?.billing_plan.provider_slug ?? 'webhook');
  const [channelIds, setChannelIds] = useState<string[]>(webhook.channel_ids ?? []);
  const [planId, setPlanId] = useState(webhook.custom_plan?.plan_id ?? '');
  const [period, setPeriod] = useState(webhook.reporting?.reporting_period ?? '1h');
  const [providerParams, setProviderParams] = useState(provider === 'webhook' ? '' : JSON.stringify(params[`${provider}_params`] ?? {}, null, 2));
  const [multiplier, setMultiplier] = useState(String(params['usage_multiplier'] ?? ''));
  const [grace, setGrace] = useState(String(params['grace_period_minutes'] ?? ''));
  const [jsonProblem, setJsonProblem] = useState<{ field: string; message: string }>();

  /** The meter as the form holds it, or undefined (with the problem shown) when a JSON field does not parse. */
  const formInput = (): MeterInput | undefined => {
    setJsonProblem(undefined);
    let esQuery: Record<string, unknown>;
    let ownParams: Record<string, unknown> = {};
    try {
      esQuery = JSON.parse(query) as Record<string, unknown>;
    } catch (error) {
      setJsonProblem({ field: 'es_query', message: `not valid JSON: ${(error as Error).message}` });
      return undefined;
    }
    if (provider !== 'webhook') {
      try {
        ownParams = JSON.parse(providerParams || '{}') as Record<string, unknown>;
      } catch (error) {
        setJsonProblem({ field: 'provider_params', message: `not valid JSON: ${(error as Error).message}` });
        return undefined;
      }
    }
    const planParams: Record<string, unknown> = {
      ...(multiplier.trim() ? { usage_multiplier: Number(multiplier) } : {}),
      ...(grace.trim() ? { grace_period_minutes: Number(grace) } : {}),
      ...(provider === 'webhook'
        ? {
            webhook_params: {
              channel_ids: channelIds,
              custom_plan: { plan_id: planId },
              ...(period ? { reporting: { report_when: [], reporting_period: period } } : {}),
            },
          }
        : { [`${provider}_params`]: ownParams }),
    };
    return { name: name.trim(), slug: slug.trim(), status, es_query: esQuery, billing_plan: { provider_slug: provider, params: planParams } };
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = formInput();
    if (input) save.mutate({ ...(meter ? { id: meter._id } : {}), meter: input }, { onSuccess: onSaved });
  };
  const runPreview = () => {
    const input = formInput();
    if (input) preview.mutate(input);
  };
  const problem = (field: string) => (jsonProblem?.field === field ? jsonProblem.message : fieldProblem(save.error ?? preview.error, field));
  // The form's own preview once asked for; before that, the saved meter's.
  const shown = preview.data ?? saved.data;

  return (
    <form className="meter-editor" onSubmit={submit} aria-label={meter ? 'Edit meter' : 'New meter'} noValidate>
      <div className="inline-form">
        <Field label="Name" problem={problem('name')}>
          <input name="name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Slug" problem={problem('slug')}>
          <input name="slug" value={slug} onChange={(e) => setSlug(e.target.value)} placeholder="api-calls" />
        </Field>
        <Field label="Status" problem={problem('status')}>
          <select name="status" value={status} onChange={(e) => setStatus(e.target.value as MeterInput['status'])}>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </select>
        </Field>
      </div>
      <Field label="Which events count (a search body over events; {{subscription_id}} and {{company_id}} placeholders allowed)" problem={problem('es_query')}>
        <textarea name="es_query" value={query} onChange={(e) => setQuery(e.target.value)} rows={5} />
      </Field>
      <div className="inline-form">
        <Field label="Provider" problem={problem('billing_plan.provider_slug')}>
          <select
            name="provider"
            value={provider}
            onChange={(e) => {
              const next = e.target.value as Provider;
              setProvider(next);
              if (next !== 'webhook' && !providerParams) setProviderParams(PARAMS_EXAMPLE[next]);
            }}
          >
            {PROVIDERS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Usage multiplier" problem={problem('billing_plan.params.usage_multiplier')}>
          <input name="usage_multiplier" value={multiplier} onChange={(e) => setMultiplier(e.target.value)} placeholder="1" size={6} />
        </Field>
        <Field
          label="Grace period (minutes)"
          problem={problem('billing_plan.params.grace_period_minutes')}
          hint="How long a window waits for late events before its first report; empty: chosen from how late the events arrive"
        >
          <input name="grace_period_minutes" value={grace} onChange={(e) => setGrace(e.target.value)} placeholder="observed" size={8} inputMode="numeric" />
        </Field>
      </div>
      {provider === 'webhook' ? (
        <fieldset className="webhook-params">
          <legend>Webhook delivery and pricing</legend>
          {choices.error && <ErrorMessage error={choices.error} />}
          <div className="scopes">
            {(choices.data?.channels ?? []).map((channel) => (
              <label key={channel.id} className="toggle">
                <input
                  type="checkbox"
                  name="channel_ids"
                  value={channel.id}
                  checked={channelIds.includes(channel.id)}
                  onChange={() => setChannelIds((ids) => (ids.includes(channel.id) ? ids.filter((id) => id !== channel.id) : [...ids, channel.id]))}
                />{' '}
                {channel.name}
              </label>
            ))}
            {choices.data && choices.data.channels.length === 0 && (
              <span className="muted">
                No webhook channels yet: <Link to="/billing/channels">create one</Link>.
              </span>
            )}
          </div>
          {problem('billing_plan.params.webhook_params.channel_ids') && (
            <p className="field-problem" role="alert">
              {problem('billing_plan.params.webhook_params.channel_ids')}
            </p>
          )}
          <div className="inline-form">
            <Field label="Catalog plan (prices the usage)" problem={problem('billing_plan.params.webhook_params.custom_plan')}>
              <select name="plan_id" value={planId} onChange={(e) => setPlanId(e.target.value)}>
                <option value="">Choose…</option>
                {(choices.data?.plans ?? []).map((plan) => (
                  <option key={plan.id} value={plan.id}>
                    {plan.name}
                  </option>
                ))}
              </select>
            </Field>
            <Link to="/billing/catalog" className="field">
              Plans and prices
            </Link>
            <Field label="Reporting period" problem={problem('billing_plan.params.webhook_params.reporting')}>
              <input name="reporting_period" value={period} onChange={(e) => setPeriod(e.target.value)} size={6} />
            </Field>
          </div>
        </fieldset>
      ) : (
        <Field label={`${provider} parameters (JSON)`} problem={problem('provider_params') ?? problem(`billing_plan.params.${provider}_params`)}>
          <textarea name="provider_params" value={providerParams} onChange={(e) => setProviderParams(e.target.value)} rows={3} />
        </Field>
      )}
      <ErrorMessage error={save.error ?? preview.error ?? saved.error} />
      <div className="inline-form">
        <button type="submit" disabled={save.isPending}>
          {meter ? 'Save meter' : 'Create meter'}
        </button>
        <button type="button" onClick={runPreview} disabled={preview.isPending}>
          {preview.isPending ? 'Previewing…' : 'Preview what it bills'}
        </button>
      </div>
      {meter && meter.billing_plan.provider_slug === 'webhook' && <ChannelTest meterId={meter._id} />}
      {shown && <MeterPreviewPanel preview={shown} />}
    </form>
  );
}
