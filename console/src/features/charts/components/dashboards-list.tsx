import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { useCreateDashboard, useDashboardPages } from '../api/dashboards';

/** The app's dashboards, and a form to start one. */
export function DashboardsList() {
  const dashboards = useDashboardPages();
  const items = dashboards.data?.pages.flatMap((page) => page.items) ?? [];
  const create = useCreateDashboard();
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name.trim(), { onSuccess: () => setName('') });
  };
  return (
    <section aria-label="Dashboards">
      <form className="inline-form" onSubmit={submit} aria-label="New dashboard">
        <label>
          Dashboard name <input name="dashboard_name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={256} />
        </label>
        <button type="submit" disabled={create.isPending}>
          Create dashboard
        </button>
        <ErrorMessage error={create.error} />
      </form>
      {dashboards.isPending ? (
        <Loading label="Loading dashboards…" />
      ) : dashboards.error ? (
        <ErrorMessage error={dashboards.error} />
      ) : items.length === 0 ? (
        <EmptyState title="No dashboards yet">
          <p>Create one, then add saved workspaces to it.</p>
        </EmptyState>
      ) : (
        <ul className="link-list">
          {items.map((dashboard) => (
            <li key={dashboard._id}>
              <Link to={`/dashboards/${encodeURIComponent(dashboard._id)}`}>{dashboard.name}</Link>{' '}
              <span className="muted">{dashboard.workspace_ids.flat().length} workspace(s)</span>
            </li>
          ))}
        </ul>
      )}
      {dashboards.hasNextPage && (
        <button type="button" onClick={() => void dashboards.fetchNextPage()} disabled={dashboards.isFetchingNextPage}>
          More dashboards
        </button>
      )}
    </section>
  );
}
