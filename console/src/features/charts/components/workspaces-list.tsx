import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { useDeleteWorkspace, useRenameWorkspace, useWorkspacePages, type Workspace } from '../api/workspaces';
import { QueryState } from '../../../components/query-state';

function RenameForm({ workspace, onDone }: { workspace: Workspace; onDone: () => void }) {
  const rename = useRenameWorkspace();
  const [name, setName] = useState(workspace.name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate({ id: workspace._id, name: name.trim() }, { onSuccess: onDone });
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label={`Rename ${workspace.name}`}>
      <label>
        New name <input name="workspace_name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={256} />
      </label>
      <button type="submit" disabled={rename.isPending}>
        Save name
      </button>
      <button type="button" className="secondary" onClick={onDone}>
        Cancel
      </button>
      <ErrorMessage error={rename.error} />
    </form>
  );
}

/** The saved workspaces: each opens its chart; renamed or deleted in place. */
export function WorkspacesList() {
  const workspaces = useWorkspacePages();
  const remove = useDeleteWorkspace();
  const [renaming, setRenaming] = useState<string>();
  const items = workspaces.data?.pages.flatMap((page) => page.items) ?? [];
  if (!workspaces.isSuccess) return <QueryState query={workspaces} loading="Loading workspaces…" />;
  if (items.length === 0) {
    return (
      <EmptyState title="No saved workspaces yet">
        <p>
          Draw a chart under <Link to="/charts/new">Charts</Link> and click <strong>Save as workspace</strong>.
        </p>
      </EmptyState>
    );
  }
  return (
    <section aria-label="Saved workspaces">
      <ErrorMessage error={remove.error} />
      <table className="event-table" aria-label="Workspaces">
        <thead>
          <tr>
            <th scope="col">Workspace</th>
            <th scope="col">View</th>
            <th scope="col">Range</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {items.map((workspace) =>
            renaming === workspace._id ? (
              <tr key={workspace._id}>
                <td colSpan={4}>
                  <RenameForm workspace={workspace} onDone={() => setRenaming(undefined)} />
                </td>
              </tr>
            ) : (
              <tr key={workspace._id}>
                <td>
                  <Link to={`/workspaces/${encodeURIComponent(workspace._id)}`}>{workspace.name}</Link>
                </td>
                <td>{workspace.chart.view}</td>
                <td>
                  {workspace.chart.from ?? ''}
                  {workspace.chart.to && workspace.chart.to !== 'now' ? ` to ${workspace.chart.to}` : ''}
                </td>
                <td>
                  <button type="button" className="secondary" onClick={() => setRenaming(workspace._id)} aria-label={`Rename ${workspace.name}`}>
                    Rename
                  </button>{' '}
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => {
                      if (window.confirm(`Delete the workspace ${workspace.name}?`)) remove.mutate(workspace._id);
                    }}
                    aria-label={`Delete ${workspace.name}`}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
      {workspaces.hasNextPage && (
        <button type="button" onClick={() => void workspaces.fetchNextPage()} disabled={workspaces.isFetchingNextPage}>
          More workspaces
        </button>
      )}
    </section>
  );
}
