import { QueryState } from '../../../components/query-state';
import { useCollectorApplicationId } from '../api/apps';
import { sdkSnippets } from '../utils/sdk-snippets';

/** How to point each Moesif SDK at this collector, with the app's collector application id filled in. */
export function SdkSnippet({ collectorUrl }: { collectorUrl: string }) {
  const id = useCollectorApplicationId();
  if (!id.isSuccess) return <QueryState query={id} loading="Loading the collector application id…" />;
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
      {sdkSnippets(id.data, collectorUrl).map((snippet) => (
        <section key={snippet.sdk} aria-label={`${snippet.sdk} snippet`}>
          <h3>{snippet.title}</h3>
          <p className="muted">
            <code>{snippet.install}</code>
          </p>
          <pre className="json-view" tabIndex={0} aria-label={`${snippet.sdk} code`}>
            {snippet.code}
          </pre>
          <CopyButton text={snippet.code} label={`Copy the ${snippet.sdk} snippet`} />
        </section>
      ))}
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
