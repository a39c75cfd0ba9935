import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { useEmailSendPages, type EmailSendStatus } from '../api/templates';

const STATUSES: readonly EmailSendStatus[] = ['sent', 'sending', 'retrying', 'failed', 'unconfirmed', 'suppressed', 'bounced'];

/** A template's sends log: one row per period and recipient, with what became of the message. */
export function EmailSendsLog({ templateId }: { templateId: string }) {
  const [status, setStatus] = useState<EmailSendStatus | ''>('');
  const sends = useEmailSendPages(templateId, status || undefined);
  const items = sends.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <div className="filter-bar">
        <label className="field">
          Status
          <select value={status} onChange={(event) => setStatus(event.target.value as EmailSendStatus | '')}>
            <option value="">Any</option>
            {STATUSES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {sends.isPending ? (
        <Loading label="Loading the sends log…" />
      ) : sends.error ? (
        <ErrorMessage error={sends.error} />
      ) : items.length === 0 ? (
        <EmptyState title="Nothing sent yet">
          <p>The sender sends an active template once each period closes, to its cohorts' members with an email address.</p>
        </EmptyState>
      ) : (
        <table className="event-table" aria-label="Sends log">
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">Recipient</th>
              <th scope="col">User</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {items.map((send) => (
              <tr key={send._id}>
                <td>{send.period_start ? send.period_key : 'once'}</td>
                <td>{send.to}</td>
                <td>{send.user_id}</td>
                <td title={send.error_message}>
                  {send.status}
                  {send.error_code ? ` (${send.error_code})` : ''}
                </td>
                <td>{send.attempts}</td>
                <td>{new Date(send.updated_at).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {sends.hasNextPage && (
        <button type="button" onClick={() => void sends.fetchNextPage()} disabled={sends.isFetchingNextPage}>
          More sends
        </button>
      )}
    </>
  );
}
