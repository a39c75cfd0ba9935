import { useCollectorApplicationId } from '../api/apps';
import { QueryState } from '../../../components/query-state';

/** How to point the Moesif SDKs at this collector, with the app's collector application id filled in. */
export function SdkSnippet({ collectorUrl }: { collectorUrl: string }) {
  const id = useCollectorApplicationId();
  if (!id.isSuccess) return <QueryState query={id} loading="Loading the collector application id…" />;
  const node = `const moesif = require('moesif-nodejs');

app.use(moesif({
  applicationId: '${id.data}',
  baseUri: '${collectorUrl}',
}));`;
  const api = `const moesifapi = require('moesifapi');

moesifapi.configuration.ApplicationId = '${id.data}';
moesifapi.configuration.BaseUri = '${collectorUrl}';`;
  return (
    <div className="sdk-snippet">
      <dl className="facts">
        <dt>Collector application id</dt>
        <dd>
          <code aria-label="Collector application id">{id.data}</code> <CopyButton text={id.data} label="Copy the collector application id" />
        </dd>
        <dt>Collector URL</dt>
        <dd>
          <code>{collectorUrl}</code>
        </dd>
      </dl>
      <h3>Express middleware (moesif-nodejs)</h3>
      <pre className="json-view" tabIndex={0} aria-label="moesif-nodejs snippet">
        {node}
      </pre>
      <CopyButton text={node} label="Copy the moesif-nodejs snippet" />
      <h3>API library (moesifapi)</h3>
      <pre className="json-view" tabIndex={0} aria-label="moesifapi snippet">
        {api}
      </pre>
      <CopyButton text={api} label="Copy the moesifapi snippet" />
    </div>
  );
}

function CopyButton({ text, label }: { text: string; label: string }) {
  return (
    <button type="button" className="secondary" aria-label={label} onClick={() => void navigator.clipboard?.writeText(text)}>
      Copy
    </button>
  );
}
