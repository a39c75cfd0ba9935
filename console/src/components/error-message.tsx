import { ApiError } from '../lib/api-error';

/** An error in words, with the fields the API named and why each was refused. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const details = error instanceof ApiError ? error.details : [];
  return (
    <div role="alert" className="error-message">
      <p>{message}</p>
      {details.length > 0 && (
        <ul>
          {details.map((detail) => (
            <li key={`${detail.field}:${detail.reason}`}>
              <code>{detail.field}</code> {detail.reason}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
