import { JsonView } from '../../../components/json-view';

/** A request or response body: JSON pretty-printed, base64 bodies decoded where they are text, truncation marked. */
export function BodyView({ body, encoding, truncated, label }: { body: unknown; encoding?: string; truncated?: boolean; label: string }) {
  if (body === undefined || body === null || body === '') return <p className="muted">No body</p>;
  let shown: unknown = body;
  let note: string | undefined;
  if (encoding === 'base64' && typeof body === 'string') {
    note = 'base64 body';
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(body), (c) => c.charCodeAt(0)));
      shown = text;
      note = 'base64 body, shown decoded';
    } catch {
      shown = body;
    }
  }
  return (
    <div className="body-view">
      {note && <p className="badge">{note}</p>}
      {truncated && <p className="badge warning">Truncated: the SDK sent only the start of this body</p>}
      {typeof shown === 'string' ? (
        <pre className="json-view" aria-label={label} tabIndex={0}>
          {shown}
        </pre>
      ) : (
        <JsonView value={shown} label={label} />
      )}
    </div>
  );
}
