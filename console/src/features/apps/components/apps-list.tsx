import { EmptyState } from '../../../components/empty-state';
import { useAppPages } from '../api/apps';
import { QueryState } from '../../../components/query-state';

/** The organisation's apps; the current one is marked, another can be switched to (signing in again for it). */
export function AppsList({ currentAppId, onSwitch }: { currentAppId: string; onSwitch: (appId: string) => void }) {
  const apps = useAppPages();
  const items = apps.data?.pages.flatMap((page) => page.items) ?? [];
  if (!apps.isSuccess) return <QueryState query={apps} loading="Loading apps…" />;
  if (items.length === 0)
    return (
      <EmptyState title="No apps">
        <p>
          Create one with <code>POST /~/apps</code>.
        </p>
      </EmptyState>
    );
  return (
    <>
      <table className="event-table" aria-label="Apps">
        <thead>
          <tr>
            <th scope="col">App</th>
            <th scope="col">App id</th>
            <th scope="col">Time zone</th>
            <th scope="col">
              <span className="visually-hidden">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((app) => (
            <tr key={app.id}>
              <td>{app.name}</td>
              <td>
                <code>{app.id}</code>
              </td>
              <td>{app.time_zone ?? 'UTC'}</td>
              <td>
                {app.id === currentAppId ? (
                  <strong>Current app</strong>
                ) : (
                  <button type="button" className="secondary" onClick={() => onSwitch(app.id)}>
                    Switch to {app.name}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {apps.hasNextPage && (
        <button type="button" onClick={() => void apps.fetchNextPage()} disabled={apps.isFetchingNextPage}>
          More apps
        </button>
      )}
    </>
  );
}
