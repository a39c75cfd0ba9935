import { regexBacktrackingProblem } from '../../values/regex-safety';
import { mapWithConcurrency } from '../shared/concurrency';
import { ValidationError, type FieldIssue } from '../shared/errors';

/** Patterns analysed at once: each analysis runs outside the event loop, in one recheck process or worker. */
const ANALYSES_IN_FLIGHT = 4;

/**
 * Every regex condition of a `regex_config` (a governance rule's, or an app's sampling rules) must be
 * proven linear in backtracking engines before it is stored and served to the SDKs: a 400 naming
 * each `<field>[i].conditions[j].value` that is not, with why.
 */
export async function assertLinearRegexConfig(configs: readonly { conditions: readonly { value: string }[] }[] | undefined, field: string): Promise<void> {
  const places = (configs ?? []).flatMap((config, i) =>
    config.conditions.map((condition, j) => ({ at: `${field}[${i}].conditions[${j}].value`, pattern: condition.value })),
  );
  // A pattern repeated across conditions is analysed once.
  const verdicts = new Map<string, Promise<string | undefined>>();
  const verdictOf = (pattern: string) => {
    let verdict = verdicts.get(pattern);
    if (verdict === undefined) {
      verdict = regexBacktrackingProblem(pattern);
      verdicts.set(pattern, verdict);
    }
    return verdict;
  };
  const reasons = await mapWithConcurrency(places, ANALYSES_IN_FLIGHT, ({ pattern }) => verdictOf(pattern));
  const issues: FieldIssue[] = places.flatMap(({ at }, i) => {
    const reason = reasons[i];
    return reason === undefined ? [] : [{ field: at, reason }];
  });
  if (issues.length > 0) throw new ValidationError(`Invalid regex: ${issues.map((issue) => `${issue.field} ${issue.reason}`).join('; ')}`, issues);
}
