import type { StoredRule } from '../../schemas/governance';
import type { GovernanceRuleModel } from '../../schemas/resources/governance-rule';

/** The rule's model (who it hits); a stored value the API no longer accepts reads as `cohort`. */
export function modelOf(rule: Pick<StoredRule, 'model'>): GovernanceRuleModel {
  const model = rule.model;
  return model === 'quota' || model === 'balance' || model === 'subscription' || model === 'spend_cap' ? model : 'cohort';
}
