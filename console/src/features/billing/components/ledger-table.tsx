import { EmptyState } from '../../../components/empty-state';
import { useFormatTime } from '../../../lib/app-time-zone';
import { useLedger, type LedgerEntry } from '../api/balances';
import { QueryState } from '../../../components/query-state';

/** A subscription's balance ledger: credits, debits, promotions, adjustments and usage draws, newest first. */
export function LedgerTable({ subscriptionId }: { subscriptionId: string }) {
  const format = useFormatTime();
  const ledger = useLedger(subscriptionId);
  const entries = ledger.data?.pages.flatMap((page) => page.items) ?? [];
  if (!ledger.isSuccess) return <QueryState query={ledger} loading="Loading the ledger…" />;
  if (entries.length === 0)
    return (
      <EmptyState title="No balance transactions">
        <p>This subscription has no credits or draws yet.</p>
      </EmptyState>
    );
  return (
    <>
      <table className="event-table" aria-label="Ledger">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Entry</th>
            <th scope="col">Amount</th>
            <th scope="col">Balance after</th>
            <th scope="col">Transaction</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.sequence_id}>
              <td>{format(entry.effective_at)}</td>
              <td>{entryLabel(entry)}</td>
              <td>{String(entry.amount)}</td>
              <td>{String(entry.current_balance)}</td>
              <td>
                <code>{entry.transaction_id ?? entry.report_key ?? ''}</code>
              </td>
              <td>{entry.description ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {ledger.hasNextPage && (
        <button type="button" onClick={() => void ledger.fetchNextPage()} disabled={ledger.isFetchingNextPage}>
          Older transactions
        </button>
      )}
    </>
  );
}

/** What a ledger line is, in words: a transaction by its type, or what happened to one (activation, expiry), or a usage draw. */
function entryLabel(entry: LedgerEntry): string {
  switch (entry.entry_type) {
    case 'transaction':
      return entry.type ?? 'transaction';
    case 'activation':
      return `${entry.type ?? 'credit'} became active`;
    case 'expiry':
      return `${entry.type ?? 'credit'} expired`;
    case 'usage':
      return 'usage draw';
  }
}
