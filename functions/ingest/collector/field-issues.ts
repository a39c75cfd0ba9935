import type { FieldIssue } from '../../shared/errors';
import { MAX_LISTED_ISSUES } from '../../shared/invalid-input';

/** One issue, with `index` only for items of batch bodies. */
export function fieldIssue(index: number | undefined, field: string, reason: string): FieldIssue {
  return index === undefined ? { field, reason } : { index, field, reason };
}

/** Collects issues up to the listing cap while counting everything that went wrong. */
export class IssueList {
  readonly listed: FieldIssue[] = [];
  badItems = 0;
  total = 0;

  add(issues: readonly FieldIssue[]): void {
    this.badItems += 1;
    this.total += issues.length;
    for (const issue of issues) {
      if (this.listed.length >= MAX_LISTED_ISSUES) return;
      this.listed.push(issue);
    }
  }

  get capped(): boolean {
    return this.total > this.listed.length;
  }
}
