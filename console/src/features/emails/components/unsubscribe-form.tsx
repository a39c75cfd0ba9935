import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { ApiError } from '../../../lib/api-error';
import { useUnsubscribe, useUnsubscribeLink } from '../api/unsubscribe';

/** The page an email's unsubscribe link opens: leave this email, or every email of the service. */
export function UnsubscribeForm({ token }: { token: string }) {
  const link = useUnsubscribeLink(token);
  const unsubscribe = useUnsubscribe(token);
  if (link.isPending) return <Loading label="Reading the link…" />;
  if (link.error) {
    return link.error instanceof ApiError && link.error.status === 401 ? (
      <div role="alert" className="error-message">
        <p>This unsubscribe link is not valid. Use the link from the email itself.</p>
      </div>
    ) : (
      <ErrorMessage error={link.error} />
    );
  }
  const { email, template_name: templateName, unsubscribed_from_template: already } = link.data;
  if (unsubscribe.data) {
    return (
      <div role="status" className="new-link">
        <p>
          {unsubscribe.data.unsubscribed === 'all'
            ? `${email} will receive no more of these emails.`
            : `${email} will no longer receive “${templateName ?? 'this email'}”.`}
        </p>
      </div>
    );
  }
  return (
    <section aria-label="Unsubscribe">
      <p>
        {already ? `${email} is already unsubscribed from “${templateName ?? 'this email'}”.` : `Stop sending “${templateName ?? 'this email'}” to ${email}?`}
      </p>
      <div className="inline-form">
        {!already && (
          <button type="button" disabled={unsubscribe.isPending} onClick={() => unsubscribe.mutate(false)}>
            Unsubscribe from this email
          </button>
        )}
        <button type="button" disabled={unsubscribe.isPending} onClick={() => unsubscribe.mutate(true)}>
          Unsubscribe from all emails
        </button>
      </div>
      <ErrorMessage error={unsubscribe.error} />
    </section>
  );
}
