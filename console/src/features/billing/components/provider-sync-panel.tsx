import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { QueryState } from '../../../components/query-state';
import { useSession } from '../../../lib/session-context';
import { formatTime } from '../../../lib/time';
import { useState } from 'react';
import { syncInProgress, useProviderSync, useRequestSync, type ProviderSync, type SyncedProvider } from '../api/provider-sync';

const PHASES: readonly ProviderSync['phase'][] = ['products', 'prices', 'customers', 'subscriptions'];
const STATUS_WORDS: Record<ProviderSync['status'], string> = {
  requested: 'Waiting to start',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
};

/** What each provider's records become, in its own words, and how its webhooks are set up there. */
const PROVIDERS: Record<SyncedProvider, { title: string; becomes: string; webhooks: string }> = {
  stripe: {
    title: 'Stripe',
    becomes:
      'Products become plans, prices become prices, customers become companies and subscriptions subscriptions, with the Stripe customer id kept beside each company.',
    webhooks:
      'In Stripe, add a webhook endpoint with this URL and the events product.*, price.*, customer.* and customer.subscription.*; put its signing secret in the connection as webhook_secret.',
  },
  chargebee: {
    title: 'Chargebee',
    becomes:
      'Items become plans, item prices become prices, customers become companies and subscriptions subscriptions (with their item prices), with the Chargebee customer id kept beside each company.',
    webhooks: "In Chargebee, add a webhook with this URL and basic authentication: any user name, the connection's webhook_secret as the password.",
  },
  recurly: {
    title: 'Recurly',
    becomes:
      'Plans become plans, usage add-ons become prices, accounts become companies (by their code) and subscriptions subscriptions (with their plan and add-ons), with the Recurly account id kept beside each company.',
    webhooks:
      'In Recurly, add a JSON webhook endpoint with this URL and account and subscription notifications; put its secret in the connection as webhook_secret.',
  },
  zuora: {
    title: 'Zuora',
    becomes:
      'Product rate plans become plans, usage charges become prices, accounts become companies (by account number) and subscriptions subscriptions (by number, with each charge number as an item), with the Zuora account id kept beside each company.',
    webhooks:
      "In Zuora, add a callout notification to this URL with basic authentication (the connection's webhook_secret as the password) and a JSON body naming the event and the subscription_number or account_number (see the provider sync docs).",
  },
};

/**
 * Sync in from a billing provider (Stripe, Chargebee, Recurly or Zuora): the account's catalog, customers and
 * subscriptions brought in as catalog plans and prices, companies and subscriptions, with the sync's
 * progress (read again every second while it runs), what it left out, and when the sweep reads
 * everything again.
 */
export function ProviderSyncPanel({ managementUrl }: { managementUrl: string }) {
  const [provider, setProvider] = useState<SyncedProvider>('stripe');
  const { session } = useSession();
  const webhookUrl = `${managementUrl.replace(/\/+$/, '')}/public/providers/${provider}/webhooks/${session?.orgId ?? ''}/${session?.appId ?? ''}`;
  const sync = useProviderSync(provider);
  const request = useRequestSync();
  const running = syncInProgress(sync.data);
  const { title, becomes, webhooks } = PROVIDERS[provider];
  return (
    <section className="tile" aria-label={`Sync from ${title}`}>
      <h2>Sync from {title}</h2>
      <label className="field">
        Provider
        <select name="sync_provider" value={provider} onChange={(e) => setProvider(e.target.value as SyncedProvider)}>
          {(Object.keys(PROVIDERS) as SyncedProvider[]).map((p) => (
            <option key={p} value={p}>
              {PROVIDERS[p].title}
            </option>
          ))}
        </select>
      </label>
      <p className="muted">
        {becomes} What comes from {title} is changed in {title}. Needs the app's {title} connection in the billing providers document.
      </p>
      <button type="button" onClick={() => request.mutate(provider)} disabled={request.isPending || running}>
        {running ? 'Syncing…' : sync.data ? 'Sync again now' : `Sync from ${title}`}
      </button>
      <ErrorMessage error={request.error} />
      <p className="muted">Changes come in by webhook within seconds, and the sweep repairs what a lost one would have said. {webhooks}</p>
      <p>
        Webhook URL: <code data-testid="webhook-url">{webhookUrl}</code>
      </p>
      {!sync.isSuccess ? (
        <QueryState query={sync} loading="Reading the sync…" />
      ) : sync.data === null ? (
        <EmptyState title="Never synced">
          <p>Nothing has been brought in from {title} yet.</p>
        </EmptyState>
      ) : (
        <SyncState sync={sync.data} />
      )}
    </section>
  );
}

function SyncState({ sync }: { sync: ProviderSync }) {
  const running = syncInProgress(sync);
  return (
    <>
      <p role="status">
        <strong>{STATUS_WORDS[sync.status]}</strong>
        {running ? ` (reading ${sync.phase})` : ''}
        {sync.finished_at ? `, finished ${formatTime(sync.finished_at)}` : sync.started_at ? `, started ${formatTime(sync.started_at)}` : ''}
        {sync.next_sweep_at && !running ? `; next sweep ${formatTime(sync.next_sweep_at)}` : ''}
      </p>
      {sync.error ? <p className="error">{sync.error}</p> : null}
      <table aria-label="Records brought in">
        <thead>
          <tr>
            {PHASES.map((phase) => (
              <th key={phase} scope="col">
                {phase}
              </th>
            ))}
            <th scope="col">left out</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            {PHASES.map((phase) => (
              <td key={phase}>{sync.counts[phase].toLocaleString()}</td>
            ))}
            <td>{sync.skipped_count.toLocaleString()}</td>
          </tr>
        </tbody>
      </table>
      {sync.skipped.length > 0 ? (
        <details>
          <summary>What was left out, and why</summary>
          <ul aria-label="Left out">
            {sync.skipped.map((record) => (
              <li key={`${record.object}:${record.id}`}>
                {record.object} <code>{record.id}</code>: {record.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}
