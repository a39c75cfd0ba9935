/** How a measured number is compared with a threshold (a cohort condition's operator). */
export type ThresholdOperator = 'gte' | 'gt' | 'lte' | 'lt' | 'eq';

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
