import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { signOut } from '../../features/auth/api/sign-out';
import { AppsList } from '../../features/apps/components/apps-list';
import { IngestBacklog } from '../../features/apps/components/ingest-backlog';
import { RouteTemplatesForm } from '../../features/apps/components/route-templates-form';
import { DataRetentionForm } from '../../features/apps/components/data-retention-form';
import { SdkSnippet } from '../../features/apps/components/sdk-snippet';
import { TokenManager } from '../../features/apps/components/token-manager';
import { useApi } from '../../lib/api-context';
import { hasScope } from '../../lib/session';
import { useSession } from '../../lib/session-context';

/** Apps and keys: switch app, the collector application id with SDK snippets, and management tokens. */
export function AppsPage({ collectorUrl }: { collectorUrl?: string }) {
  const { session, setSession } = useSession();
  const api = useApi();
  const navigate = useNavigate();
  if (!session) return null;
  // A token belongs to one app: switching signs in again for the other one.
  const switchTo = async (appId: string) => {
    await signOut(api, session);
    setSession(undefined);
    void navigate(`/sign-in?app_id=${encodeURIComponent(appId)}`);
  };
  return (
    <>
      <PageHeader title="Apps and keys" />
      {hasScope(session, 'read:apps') && (
        <section aria-label="Apps">
          <h2>Apps</h2>
          <AppsList currentAppId={session.appId} onSwitch={(appId) => void switchTo(appId)} />
        </section>
      )}
      {hasScope(session, 'read:apps') && (
        <section aria-label="Ingest">
          <h2>Ingest</h2>
          <IngestBacklog />
        </section>
      )}
      {hasScope(session, 'update:apps') && (
        <section aria-label="Routes">
          <h2>Routes</h2>
          <RouteTemplatesForm appId={session.appId} />
        </section>
      )}
      {hasScope(session, 'update:apps') && (
        <section aria-label="Data retention">
          <h2>Data retention</h2>
          <DataRetentionForm appId={session.appId} />
        </section>
      )}
      {hasScope(session, 'create:access_tokens') && (
        <>
          <section aria-label="Send data">
            <h2>Send data from your API</h2>
            <SdkSnippet collectorUrl={collectorUrl ?? 'https://<your collector URL>'} />
          </section>
          <section aria-label="Management tokens">
            <h2>Management tokens</h2>
            <TokenManager scopes={session.scopes} currentTokenId={session.tokenId} />
          </section>
        </>
      )}
    </>
  );
}
