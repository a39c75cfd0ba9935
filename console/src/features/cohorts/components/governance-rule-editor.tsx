import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../components/error-message';
import { Field } from '../../../components/field';
import { fieldProblem } from '../../../lib/api-error';
import { useCohorts } from '../api/cohorts';
import { useSaveGovernanceRule, type GovernanceRuleInput, type StoredGovernanceRule } from '../api/governance-rules';
import { CohortMembers } from './cohort-members';
import { billingFieldsOf, billingInput, RuleBillingFields } from './rule-billing-fields';

type RuleType = GovernanceRuleInput['type'];
interface Pair {
  readonly first: string;
  readonly second: string;
}

/** Rows of two text inputs (regex conditions, variables), with add and remove. */
function PairRows({
  legend,
  labels,
  rows,
  onChange,
  problem,
}: {
  legend: string;
  labels: [string, string];
  rows: Pair[];
  onChange: (rows: Pair[]) => void;
  problem?: (index: number) => string | undefined;
}) {
  const set = (index: number, pair: Pair) => onChange(rows.map((row, i) => (i === index ? pair : row)));
  return (
    <fieldset>
      <legend>{legend}</legend>
      {rows.map((row, i) => (
        <div className="inline-form" key={i}>
          <Field label={`${labels[0]} ${i + 1}`} problem={problem?.(i)}>
            <input value={row.first} onChange={(e) => set(i, { ...row, first: e.target.value })} />
          </Field>
          <Field label={`${labels[1]} ${i + 1}`}>
            <input value={row.second} onChange={(e) => set(i, { ...row, second: e.target.value })} size={30} />
          </Field>
          <button type="button" className="secondary" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            Remove {legend.toLowerCase()} {i + 1}
          </button>
        </div>
      ))}
      <button type="button" className="secondary" onClick={() => onChange([...rows, { first: '', second: '' }])}>
        Add to {legend.toLowerCase()}
      </button>
    </fieldset>
  );
}

/**
 * Creates or edits a governance rule: who it applies to (cohorts for user and company rules, request
 * conditions for regex rules), the variables its response may use, and the response the SDKs send
 * when it blocks. A user or company rule shows, per chosen cohort, how many profiles it hits now.
 */
export function GovernanceRuleEditor({ rule, onSaved }: { rule?: StoredGovernanceRule; onSaved: () => void }) {
  const save = useSaveGovernanceRule();
  const cohorts = useCohorts();
  const [name, setName] = useState(rule?.name ?? '');
  const [type, setType] = useState<RuleType>(rule?.type ?? 'user');
  const [enabled, setEnabled] = useState((rule?.state ?? 1) === 1);
  const [block, setBlock] = useState(rule?.block ?? true);
  const [appliedTo, setAppliedTo] = useState(rule?.applied_to ?? 'matching');
  const [cohortIds, setCohortIds] = useState<string[]>((rule?.cohorts ?? []).map((ref) => ref.id));
  const [conditions, setConditions] = useState<Pair[]>(
    (rule?.regex_config?.[0]?.conditions ?? [{ path: 'request.route', value: '' }]).map((c) => ({ first: c.path, second: c.value })),
  );
  const [variables, setVariables] = useState<Pair[]>((rule?.variables ?? []).map((v) => ({ first: v.name, second: v.path })));
  const [status, setStatus] = useState(String(rule?.response?.status ?? 429));
  const [body, setBody] = useState(rule?.response?.body === undefined ? '{"error": "Quota exceeded"}' : JSON.stringify(rule.response.body, null, 2));
  const [bodyProblem, setBodyProblem] = useState<string>();
  const [billing, setBilling] = useState(() => billingFieldsOf(rule));
  const [quotaQueryProblem, setQuotaQueryProblem] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBodyProblem(undefined);
    setQuotaQueryProblem(undefined);
    const plans = type === 'regex' ? { model: 'cohort' as const, plans: [] } : billingInput(billing);
    if (typeof plans === 'string') {
      setQuotaQueryProblem(plans);
      return;
    }
    let responseBody: unknown;
    try {
      responseBody = body.trim() === '' ? undefined : JSON.parse(body);
    } catch (error) {
      setBodyProblem(`not valid JSON: ${(error as Error).message}`);
      return;
    }
    const input: GovernanceRuleInput = {
      name: name.trim(),
      type,
      state: enabled ? 1 : 0,
      block,
      applied_to: appliedTo,
      variables: variables.map((v) => ({ name: v.first.trim(), path: v.second.trim() })),
      response:
        billing.defaultResponse && plans.model !== 'cohort'
          ? {}
          : { status: Number(status), headers: { 'content-type': 'application/json' }, ...(responseBody === undefined ? {} : { body: responseBody }) },
      ...plans,
      ...(type === 'regex'
        ? { regex_config: [{ conditions: conditions.map((c) => ({ path: c.first.trim(), value: c.second })) }], cohorts: [] }
        : { cohorts: cohortIds.map((id) => ({ id })), regex_config: [] }),
    };
    save.mutate({ ...(rule ? { id: rule._id } : {}), rule: input }, { onSuccess: onSaved });
  };
  const problem = (field: string) =>
    (field === 'response.body' && bodyProblem) || (field === 'quota.query' && quotaQueryProblem) || fieldProblem(save.error, field);
  const ofType = (cohorts.data ?? []).filter((cohort) => cohort.cohort_type === type);

  return (
    <form className="rule-editor" onSubmit={submit} aria-label={rule ? 'Edit governance rule' : 'New governance rule'} noValidate>
      <div className="inline-form">
        <Field label="Name" problem={problem('name')}>
          <input name="rule_name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Applies to" problem={problem('type')}>
          <select name="rule_type" value={type} onChange={(e) => setType(e.target.value as RuleType)}>
            <option value="user">Users, by cohort or plan</option>
            <option value="company">Companies, by cohort or plan</option>
            <option value="regex">Requests matching patterns</option>
          </select>
        </Field>
        <label className="toggle">
          <input type="checkbox" name="rule_enabled" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
        </label>
        <label className="toggle">
          <input type="checkbox" name="rule_block" checked={block} onChange={(e) => setBlock(e.target.checked)} /> Block matching requests
        </label>
      </div>
      {type === 'regex' ? (
        <PairRows
          legend="Conditions"
          labels={['Field', 'Pattern']}
          rows={conditions}
          onChange={setConditions}
          problem={(i) =>
            fieldProblem(save.error, `regex_config[0].conditions[${i}].value`) ?? fieldProblem(save.error, `regex_config[0].conditions[${i}].path`)
          }
        />
      ) : (
        <fieldset>
          <legend>Cohorts</legend>
          <Field label="Hits" problem={problem('applied_to')}>
            <select name="applied_to" value={appliedTo} onChange={(e) => setAppliedTo(e.target.value as typeof appliedTo)}>
              <option value="matching">members of the cohorts</option>
              <option value="not_matching">everyone but their members</option>
            </select>
          </Field>
          {ofType.length === 0 && <p className="muted">No {type} cohorts yet: create one under Cohorts.</p>}
          {ofType.map((cohort) => (
            <div key={cohort._id} className="rule-cohort">
              <label className="toggle">
                <input
                  type="checkbox"
                  name="cohort_ids"
                  value={cohort._id}
                  checked={cohortIds.includes(cohort._id)}
                  onChange={() => setCohortIds((ids) => (ids.includes(cohort._id) ? ids.filter((id) => id !== cohort._id) : [...ids, cohort._id]))}
                />{' '}
                {cohort.cohort_name}
              </label>
              {cohortIds.includes(cohort._id) && <CohortMembers type={cohort.cohort_type} criteria={cohort.criteria} list={false} />}
            </div>
          ))}
          {problem('cohorts') && (
            <p className="field-problem" role="alert">
              {problem('cohorts')}
            </p>
          )}
        </fieldset>
      )}
      {type !== 'regex' && <RuleBillingFields fields={billing} onChange={setBilling} problem={(field) => problem(field) || undefined} />}
      <PairRows
        legend="Variables"
        labels={['Name', 'Profile field']}
        rows={variables}
        onChange={setVariables}
        problem={(i) => fieldProblem(save.error, `variables[${i}].name`)}
      />
      <fieldset disabled={billing.defaultResponse && billing.model !== 'cohort' && type !== 'regex'}>
        <legend>Response when blocked</legend>
        <Field label="Status" problem={problem('response.status')}>
          <input name="response_status" value={status} onChange={(e) => setStatus(e.target.value)} size={5} />
        </Field>
        <Field label="Body (JSON; {{variable}} is replaced by the SDK)" problem={problem('response.body')}>
          <textarea name="response_body" value={body} onChange={(e) => setBody(e.target.value)} rows={3} />
        </Field>
      </fieldset>
      <ErrorMessage error={save.error} />
      <button type="submit" disabled={save.isPending}>
        {rule ? 'Save rule' : 'Create rule'}
      </button>
    </form>
  );
}
