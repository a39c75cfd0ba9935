/** A rate (0–1) as a percentage with at most one decimal: `0.333` → `33.3%`, `0.5` → `50%`; null → `–`. */
export function percent(rate: number | null): string {
  return rate === null ? '–' : `${(rate * 100).toFixed(1).replace(/\.0$/, '')}%`;
}
