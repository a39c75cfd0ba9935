import { useNavigate, useParams } from 'react-router';
import { ErrorMessage } from '../../components/error-message';
import { Loading } from '../../components/loading';
import { PageHeader } from '../../components/page-header';
import { useCohort, useDeleteCohort } from '../../features/cohorts/api/cohorts';
import { CohortEditor } from '../../features/cohorts/components/cohort-editor';
import { CohortMembers } from '../../features/cohorts/components/cohort-members';
import { CohortsList } from '../../features/cohorts/components/cohorts-list';
import { GovernanceRules } from '../../features/cohorts/components/governance-rules';

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
  if (cohort.isPending) return <Loading label="Loading the cohort…" />;
  if (cohort.error) return <ErrorMessage error={cohort.error} />;
  return (
    <>
      <PageHeader title={cohort.data.cohort_name}>
        <button type="button" className="secondary" onClick={() => remove.mutate(cohortId, { onSuccess: () => void navigate('/cohorts') })}>Delete cohort</button>
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
      <PageHeader title="Governance rules" />
      <GovernanceRules />
    </>
  );
}
