import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { useRouteTemplates, useSaveRouteTemplates } from '../api/apps';
import { QueryState } from '../../../components/query-state';

/**
 * The app's own route templates, one per line. Ids (numbers, UUIDs, hashes) are found without them;
 * these name what cannot be seen from a path alone, such as handles and slugs.
 */
export function RouteTemplatesForm({ appId }: { appId: string }) {
  const templates = useRouteTemplates(appId);
  if (!templates.isSuccess) return <QueryState query={templates} loading="Loading route templates…" />;
  return <TemplatesEditor appId={appId} saved={templates.data} />;
}

function TemplatesEditor({ appId, saved }: { appId: string; saved: readonly string[] }) {
  const [text, setText] = useState(saved.join('\n'));
  const save = useSaveRouteTemplates(appId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    );
  };
  return (
    <form onSubmit={submit} aria-label="Route templates">
      <p>
        API calls are grouped by route: <code>/items/195</code> becomes <code>/items/:id</code> by itself (numbers, UUIDs, hashes and other ids). Name the
        routes it cannot see here, one per line, as <code>/handles/:handle</code>. The first that matches a path wins, for calls received from now on.
      </p>
      <label>
        Route templates
        <textarea name="route_templates" rows={4} cols={50} value={text} onChange={(e) => setText(e.target.value)} placeholder="/handles/:handle" />
      </label>
      <button type="submit" disabled={save.isPending}>
        Save route templates
      </button>
      {save.isSuccess && (
        <p role="status">
          Saved {save.data.length} route template{save.data.length === 1 ? '' : 's'}.
        </p>
      )}
      {save.error && <ErrorMessage error={save.error} />}
    </form>
  );
}
