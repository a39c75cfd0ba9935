import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { useAddToDashboard, useDashboards } from '../api/dashboards';

/** Puts a workspace on a dashboard (as a new row at its end). */
export function AddToDashboardForm({ workspaceId, onAdded }: { workspaceId: string; onAdded: (dashboardId: string) => void }) {
  const dashboards = useDashboards();
  const add = useAddToDashboard();
  const [dashboardId, setDashboardId] = useState('');
  if (!dashboards.data || dashboards.data.length === 0) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ dashboardId, workspaceId }, { onSuccess: () => onAdded(dashboardId) });
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Add to dashboard">
      <label>
        Dashboard
        <select name="dashboard" value={dashboardId} onChange={(e) => setDashboardId(e.target.value)} required>
          <option value="">Choose…</option>
          {dashboards.data.map((d) => (
            <option key={d._id} value={d._id}>
              {d.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={add.isPending}>
        Add to dashboard
      </button>
      <ErrorMessage error={add.error} />
    </form>
  );
}
