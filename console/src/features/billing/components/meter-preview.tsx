import type { MeterPreview } from '../api/meters';

/**
 * What a meter bills, from the preview API: warnings first (a meter that would bill nothing says
 * why), the ids its subscriptions must carry, the subscriptions that match, and the usage and
 * amount per subscription of the window in progress.
 */
export function MeterPreviewPanel({ preview }: { preview: MeterPreview }) {
  const { subscriptions, window } = preview;
  return (
    <section className="meter-preview" aria-label="Meter preview">
      <h2>What this meter bills</h2>
      {preview.warnings.map((warning) => (
        <p key={warning.code} className="warning" role="status">
          <strong>Bills nothing as set up:</strong> {warning.message}
        </p>
      ))}
      <p>
        {preview.billed_ids.length > 0 ? (
          <>
            Subscriptions must carry <strong>{preview.billed_ids.join(' or ')}</strong> as an item&apos;s <code>plan_id</code>, <code>price_id</code> or{' '}
            <code>subscription_item_id</code> (a subscription sent without items: its <code>metadata.plan_id</code> or <code>metadata.price_id</code>).{' '}
          </>
        ) : (
          <>Any active or trialing subscription of a company is billed. </>
        )}
        {subscriptions.matching} of {subscriptions.billable} active or trialing subscriptions match
        {subscriptions.matching_ids.length > 0 && (
          <>
            : {subscriptions.matching_ids.join(', ')}
            {subscriptions.matching > subscriptions.matching_ids.length ? ', …' : ''}
          </>
        )}
        .{subscriptions.matching_by_metadata > 0 && ` ${subscriptions.matching_by_metadata} of them by the plan named in their metadata (sent without items).`}
        {preview.per_subscription && ' The query is evaluated once per matching subscription.'}
      </p>
      <table className="event-table" aria-label="Usage in the window in progress">
        <caption>
          Usage from {new Date(window.start).toLocaleString()} to {new Date(window.end).toLocaleString()} (in progress; amounts as if it opened the period)
        </caption>
        <thead>
          <tr>
            <th scope="col">Subscription</th>
            <th scope="col">Company</th>
            <th scope="col">Billed</th>
            <th scope="col">Quantity</th>
            <th scope="col">Amount</th>
          </tr>
        </thead>
        <tbody>
          {preview.lines.length === 0 && (
            <tr>
              <td colSpan={5}>No usage in this window yet.</td>
            </tr>
          )}
          {preview.lines.map((line) => (
            <tr key={`${line.subscription_id ?? ''}|${line.company_id ?? ''}`}>
              <td>{line.subscription_id ?? '—'}</td>
              <td>{line.company_id ?? '—'}</td>
              <td>{line.status === 'billed' ? 'Yes' : 'No: unattributed, kept but never sent'}</td>
              <td>{line.quantity.toLocaleString()}</td>
              <td>{line.amount === null ? '—' : `${line.amount} ${(line.currency ?? '').toUpperCase()}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
