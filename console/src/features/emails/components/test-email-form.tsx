import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { Field } from '../../../components/field';
import { fieldProblem } from '../../../lib/api-error';
import { useSendTestEmail } from '../api/templates';

/** Sends the template now to one address, rendered for a user or with sample values. */
export function TestEmailForm({ templateId }: { templateId: string }) {
  const [to, setTo] = useState('');
  const [userId, setUserId] = useState('');
  const send = useSendTestEmail(templateId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate({ to: to.trim(), ...(userId.trim() ? { user_id: userId.trim() } : {}) });
  };
  const result = send.data;
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Send a test">
      <Field label="To" problem={fieldProblem(send.error, 'to')}>
        <input type="email" value={to} onChange={(event) => setTo(event.target.value)} required />
      </Field>
      <Field label="As user (optional: sample values otherwise)" problem={fieldProblem(send.error, 'user_id')}>
        <input value={userId} onChange={(event) => setUserId(event.target.value)} />
      </Field>
      {send.error && !fieldProblem(send.error, 'to') && !fieldProblem(send.error, 'user_id') && <ErrorMessage error={send.error} />}
      <button type="submit" disabled={send.isPending || to.trim() === ''}>
        Send test
      </button>
      {result && (
        <p role="status">
          {result.status === 'sent'
            ? `Sent “${result.subject}” to ${result.to} (${result.transport}).`
            : `Not sent: ${result.status}${result.error_message ? `, ${result.error_message}` : ''}.`}
        </p>
      )}
    </form>
  );
}
