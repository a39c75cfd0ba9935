import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { useSaveWorkspace, type Workspace } from '../api/workspaces';
import type { ChartSpec } from '../utils/chart-spec';

/** Saves the chart on screen as a workspace under a name. */
export function SaveWorkspaceForm({ spec, onSaved }: { spec: ChartSpec; onSaved: (workspace: Workspace) => void }) {
  const [name, setName] = useState('');
  const save = useSaveWorkspace();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ name: name.trim(), spec }, { onSuccess: onSaved });
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Save as workspace">
      <label>
        Workspace name <input name="workspace_name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={256} />
      </label>
      <button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save as workspace'}
      </button>
      <ErrorMessage error={save.error} />
    </form>
  );
}
