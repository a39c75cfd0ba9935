import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { QueryState } from '../../../components/query-state';
import { type DocumentedApi, useApiOutline } from '../api/openapi-documents';
import { operationsByTag } from '../utils/openapi-outline';
import { OperationView } from './operation-view';

/** The endpoint reference: the OpenAPI document an API serves, browsable and searchable. */
export function ApiReference({ collectorUrl }: { collectorUrl?: string }) {
  const [which, setWhich] = useState<DocumentedApi>('management');
  const [filter, setFilter] = useState('');
  const outline = useApiOutline(which, collectorUrl);
  return (
    <>
      <form className="filters" aria-label="Find an endpoint" onSubmit={(event) => event.preventDefault()}>
        <label>
          API
          <select value={which} onChange={(event) => setWhich(event.target.value === 'collector' ? 'collector' : 'management')}>
            <option value="management">Management API</option>
            <option value="collector">Collector API</option>
          </select>
        </label>
        <label>
          Find
          <input type="search" value={filter} onChange={(event) => setFilter(event.target.value)} placeholder="post cohorts" />
        </label>
      </form>
      <ApiOperations outline={outline} filter={filter} />
    </>
  );
}

function ApiOperations({ outline, filter }: { outline: ReturnType<typeof useApiOutline>; filter: string }) {
  if (!outline.isSuccess) return <QueryState query={outline} loading="Loading the API's OpenAPI document…" />;
  const groups = operationsByTag(outline.data, filter);
  if (groups.length === 0) return <EmptyState title="No endpoint matches">Every word you type must appear in the method, path, summary or tag.</EmptyState>;
  return (
    <>
      <p>
        {outline.data.title} {outline.data.version}: {groups.reduce((sum, [, operations]) => sum + operations.length, 0)} endpoints. The same document is served
        at <code>/openapi.json</code>.
      </p>
      {groups.map(([tag, operations]) => (
        <section key={tag} aria-label={`Endpoints: ${tag}`}>
          <h2>{tag}</h2>
          {operations.map((operation) => (
            <OperationView key={`${operation.method} ${operation.path}`} operation={operation} />
          ))}
        </section>
      ))}
    </>
  );
}
