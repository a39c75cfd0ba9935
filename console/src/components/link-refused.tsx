import type { ApiError } from '../lib/api-error';
import { linkRefusedText } from '../lib/link-refused';

/** The whole page when its link's token is refused (401) or what it opened is gone (404). */
export function LinkRefused({ error }: { error: ApiError }) {
  return (
    <div role="alert" className="error-message">
      <p>{linkRefusedText(error)}</p>
    </div>
  );
}
