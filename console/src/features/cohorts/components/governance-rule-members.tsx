import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { QueryState } from '../../../components/query-state';
import { usePlanNames } from '../../../lib/catalog';
import { useGovernanceRuleMembers } from '../api/governance-rules';

/** The values worth a column, in this order, when any member has them. */
const COLUMNS: readonly [string, string][] = [
  ['quota_used', 'Used'],
  ['quota_limit', 'Quota'],
  ['quota_reset', 'Resets'],
  ['balance', 'Balance'],
  ['subscription_status', 'Subscription'],
  ['spend_cap_spent', 'Spent'],
  ['spend_cap_budget', 'Spend cap'],
  ['spend_cap_currency', 'Currency'],
  ['spend_cap_reset', 'Resets'],
  ['subscription_id', 'Subscription id'],
  ['plan_id', 'Plan'],
];

/** Who the rule blocks (or tags) now, with the figures its response is filled with. */
export function GovernanceRuleMembers({ ruleId, blocks }: { ruleId: string; blocks: boolean }) {
  const members = useGovernanceRuleMembers(ruleId);
  const planNames = usePlanNames();
  if (!members.isSuccess) return <QueryState query={members} loading="Loading who the rule hits…" />;
  const { total, members: shown } = members.data;
  const heading = blocks ? 'Blocked now' : 'Tagged now';
  if (total === 0)
    return (
      <EmptyState title={`${heading}: nobody`}>
        <p>The rule hits nobody at its last refresh (every 15 s locally, every minute on AWS).</p>
      </EmptyState>
    );
  const columns = COLUMNS.filter(([key]) => shown.some((member) => member.values[key] !== undefined));
  return (
    <section aria-label={heading}>
      <h2>
        {heading}: {total.toLocaleString()}
      </h2>
      <table className="event-table" aria-label={`${heading}, by id`}>
        <thead>
          <tr>
            <th scope="col">Who</th>
            {columns.map(([key, label]) => (
              <th scope="col" key={key}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((member) => (
            <tr key={`${member.kind}:${member.id}`}>
              <td>
                <Link to={`/${member.kind === 'user' ? 'users' : 'companies'}/${encodeURIComponent(member.id)}`}>{member.id}</Link>
              </td>
              {columns.map(([key]) => (
                <td key={key} title={key === 'plan_id' ? member.values[key] : undefined}>
                  {key === 'quota_reset' && member.values[key]
                    ? new Date(member.values[key]).toLocaleString()
                    : key === 'plan_id' && member.values[key]
                      ? (planNames.get(member.values[key]) ?? member.values[key])
                      : (member.values[key] ?? '')}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {total > shown.length && (
        <p className="muted">
          The first {shown.length} of {total.toLocaleString()}.
        </p>
      )}
    </section>
  );
}
