import { Link, useNavigate, useParams } from 'react-router';
import { ErrorMessage } from '../../components/error-message';
import { PageHeader } from '../../components/page-header';
import { useCohort, useDeleteCohort } from '../../features/cohorts/api/cohorts';
import { CohortEditor } from '../../features/cohorts/components/cohort-editor';
import { CohortMembers } from '../../features/cohorts/components/cohort-members';
import { CohortsList } from '../../features/cohorts/components/cohorts-list';
import { GovernanceRules } from '../../features/cohorts/components/governance-rules';
import { GovernanceRuleEditor } from '../../features/cohorts/components/governance-rule-editor';
import { GovernanceRuleMembers } from '../../features/cohorts/components/governance-rule-members';
import { useDeleteGovernanceRule, useGovernanceRule } from '../../features/cohorts/api/governance-rules';
import { QueryState } from '../../components/query-state';

export function CohortsPage() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="Cohorts" />
      <CohortsList />
      <section aria-label="New cohort">
        <h2>New cohort</h2>
        <CohortEditor onSaved={(cohort) => void navigate(`/cohorts/${encodeURIComponent(cohort._id)}`)} />
      </section>
    </>
  );
}

/** A cohort: its editor with the live count, and its members now. */
export function CohortPage() {
  const { cohortId = '' } = useParams();
  const cohort = useCohort(cohortId);
  const remove = useDeleteCohort();
  const navigate = useNavigate();
  if (!cohort.isSuccess) return <QueryState query={cohort} loading="Loading the cohort…" />;
  return (
    <>
      <PageHeader title={cohort.data.cohort_name}>
        <button type="button" className="secondary" onClick={() => remove.mutate(cohortId, { onSuccess: () => void navigate('/cohorts') })}>
          Delete cohort
        </button>
      </PageHeader>
      <ErrorMessage error={remove.error} />
      <CohortEditor key={JSON.stringify(cohort.data.criteria)} cohort={cohort.data} onSaved={() => void cohort.refetch()} />
      <section aria-label="Members">
        <h2>Members now</h2>
        <CohortMembers type={cohort.data.cohort_type} criteria={cohort.data.criteria} />
      </section>
    </>
  );
}

export function GovernancePage() {
  return (
    <>
      <PageHeader title="Governance rules">
        <Link to="/governance/new">New rule</Link>
      </PageHeader>
      <GovernanceRules />
    </>
  );
}

export function NewGovernanceRulePage() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="New governance rule">
        <Link to="/governance">All rules</Link>
      </PageHeader>
      <GovernanceRuleEditor onSaved={() => void navigate('/governance')} />
    </>
  );
}

export function GovernanceRulePage() {
  const { ruleId = '' } = useParams();
  const rule = useGovernanceRule(ruleId);
  const remove = useDeleteGovernanceRule();
  const navigate = useNavigate();
  if (!rule.isSuccess) return <QueryState query={rule} loading="Loading the rule…" />;
  const deleteRule = () => {
    if (window.confirm(`Delete the rule ${rule.data.name}? The SDKs stop applying it at their next rules fetch.`))
      remove.mutate(ruleId, { onSuccess: () => void navigate('/governance') });
  };
  return (
    <>
      <PageHeader title={rule.data.name}>
        <Link to="/governance">All rules</Link>{' '}
        <button type="button" className="secondary" onClick={deleteRule}>
          Delete rule
        </button>
      </PageHeader>
      <ErrorMessage error={remove.error} />
      {rule.data.type !== 'regex' && <GovernanceRuleMembers ruleId={ruleId} blocks={rule.data.block} />}
      <GovernanceRuleEditor rule={rule.data} onSaved={() => void navigate('/governance')} />
    </>
  );
}
