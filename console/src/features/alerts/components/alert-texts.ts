import type { AlertRuleInput } from '../api/alerts';

/** A condition in words: "above 20", "above 3× the last 2 weeks". */
export function conditionText(condition: AlertRuleInput['condition']): string {
  if (condition.type === 'static') return `${condition.operator} ${condition.threshold}`;
  const weeks = condition.weeks ?? 2;
  return `${condition.operator} ${condition.operator === 'above' ? `${condition.factor}×` : `1/${condition.factor} of`} the same hour of the last ${weeks} week${weeks === 1 ? '' : 's'}`;
}
