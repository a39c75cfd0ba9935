/** How a measured number may be compared with a threshold: a cohort condition's operators (its schema reads them from here). */
export const THRESHOLD_OPERATORS = ['gte', 'gt', 'lte', 'lt', 'eq'] as const;
export type ThresholdOperator = (typeof THRESHOLD_OPERATORS)[number];

/** Whether `measured` compares with `threshold` as the operator says. */
export function meetsThreshold(measured: number, operator: ThresholdOperator, threshold: number): boolean {
  switch (operator) {
    case 'gte':
      return measured >= threshold;
    case 'gt':
      return measured > threshold;
    case 'lte':
      return measured <= threshold;
    case 'lt':
      return measured < threshold;
    case 'eq':
      return measured === threshold;
  }
}
