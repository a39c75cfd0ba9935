import { Link } from 'react-router';
import { usePlanNames } from '../../../lib/catalog';
import { EmptyState } from '../../../components/empty-state';
import { useCohort, useGovernanceRulePages } from '../api/cohorts';
import { CohortMembers } from './cohort-members';
import { QueryState } from '../../../components/query-state';

const MODEL_HITS = {
  cohort: 'subscribers',
  quota: 'subscribers over quota',
  balance: 'subscribers with no balance left',
  subscription: 'inactive subscribers',
  spend_cap: 'customers past their own spend cap',
} as const;

/** Governance rules, and for user and company rules the cohorts they hit with how many members each has now. */
export function GovernanceRules() {
  const planNames = usePlanNames();
  const rules = useGovernanceRulePages();
  const items = rules.data?.pages.flatMap((page) => page.items) ?? [];
  if (!rules.isSuccess) return <QueryState query={rules} loading="Loading governance rules…" />;
  if (items.length === 0)
    return (
      <EmptyState title="No governance rules">
        <p>
          Rules block or tag API calls in the SDKs: click <Link to="/governance/new">New rule</Link>.
        </p>
      </EmptyState>
    );
  return (
    <>
      <table className="event-table" aria-label="Governance rules">
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">Type</th>
            <th scope="col">State</th>
            <th scope="col">Blocks</th>
            <th scope="col">Hits</th>
          </tr>
        </thead>
        <tbody>
          {items.map((rule) => (
            <tr key={rule._id}>
              <td>
                <Link to={`/governance/${encodeURIComponent(rule._id)}`} aria-label={`Edit ${rule.name}`}>
                  {rule.name}
                </Link>
              </td>
              <td>{rule.type}</td>
              <td>{rule.state === 1 ? 'enabled' : 'disabled'}</td>
              <td>{rule.block ? 'yes' : 'no'}</td>
              <td>
                {rule.type === 'regex' ? (
                  <span className="muted">requests whose fields match</span>
                ) : (
                  <>
                    {(rule.plans ?? []).length > 0 && (
                      <div className="muted">
                        {MODEL_HITS[rule.model ?? 'cohort']} on {(rule.plans ?? []).map((plan) => planNames.get(plan.plan_id) ?? plan.plan_id).join(', ')}
                      </div>
                    )}
                    {rule.model === 'spend_cap' && (rule.plans ?? []).length === 0 && <div className="muted">{MODEL_HITS.spend_cap}</div>}
                    {(rule.cohorts ?? []).map((ref) => (
                      <RuleCohort key={ref.id} id={ref.id} />
                    ))}
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rules.hasNextPage && (
        <button type="button" onClick={() => void rules.fetchNextPage()} disabled={rules.isFetchingNextPage}>
          More rules
        </button>
      )}
    </>
  );
}

function RuleCohort({ id }: { id: string }) {
  const cohort = useCohort(id);
  if (!cohort.isSuccess) return <QueryState query={cohort} loading="Loading a cohort…" />;
  return (
    <div className="rule-cohort">
      <Link to={`/cohorts/${encodeURIComponent(id)}`}>{cohort.data.cohort_name}</Link>
      <CohortMembers type={cohort.data.cohort_type} criteria={cohort.data.criteria} list={false} />
    </div>
  );
}
