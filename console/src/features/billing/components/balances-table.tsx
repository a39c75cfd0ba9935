import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { useCompanyBalances } from '../api/balances';
import { QueryState } from '../../../components/query-state';

/** The credit balances of a company's subscriptions, each leading to its ledger. */
export function BalancesTable({ companyId }: { companyId: string }) {
  const balances = useCompanyBalances(companyId);
  if (!balances.isSuccess) return <QueryState query={balances} loading="Loading balances…" />;
  if (balances.data.length === 0) {
    return (
      <EmptyState title="No credit balances">
        <p>Record a credit below: the subscription's balance pays its usage first.</p>
      </EmptyState>
    );
  }
  return (
    <table className="event-table" aria-label="Balances">
      <thead>
        <tr>
          <th scope="col">Subscription</th>
          <th scope="col">Current</th>
          <th scope="col">Pending</th>
          <th scope="col">Available</th>
        </tr>
      </thead>
      <tbody>
        {balances.data.map((balance) => (
          <tr key={balance.subscription_id}>
            <td>
              <Link to={`/billing/subscriptions/${encodeURIComponent(balance.subscription_id)}`}>{balance.subscription_id}</Link>
            </td>
            <td>{balance.current_balance}</td>
            <td>{balance.pending_activity}</td>
            <td>{balance.available_balance}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
