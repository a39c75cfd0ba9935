import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { Loading } from '../../../components/loading';
import { useFormatTime } from '../../../lib/app-time-zone';
import { useLedger } from '../api/balances';

/** A subscription's balance ledger: credits, debits, promotions, adjustments and usage draws, newest first. */
export function LedgerTable({ subscriptionId }: { subscriptionId: string }) {
  const format = useFormatTime();
  const ledger = useLedger(subscriptionId);
  const entries = ledger.data?.pages.flatMap((page) => page.items) ?? [];
  if (ledger.isPending) return <Loading label="Loading the ledger…" />;
  if (ledger.error) return <ErrorMessage error={ledger.error} />;
  if (entries.length === 0) return <EmptyState title="No balance transactions"><p>This subscription has no credits or draws yet.</p></EmptyState>;
  return (
    <>
    <table className="event-table" aria-label="Ledger">
      <thead><tr><th scope="col">Time</th><th scope="col">Type</th><th scope="col">Amount</th><th scope="col">Transaction</th><th scope="col">Description</th></tr></thead>
      <tbody>
        {entries.map((entry, i) => (
          <tr key={String(entry._id ?? entry.transaction_id ?? i)}>
            <td>{format(entry.created_at)}</td>
            <td>{entry.type}</td>
            <td>{String(entry.amount)}</td>
            <td><code>{entry.transaction_id ?? ''}</code></td>
            <td>{entry.description ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
    {ledger.hasNextPage && <button type="button" onClick={() => void ledger.fetchNextPage()} disabled={ledger.isFetchingNextPage}>Older transactions</button>}
    </>
  );
}
