import type { Diagnostics } from 'recheck';

/**
 * Whether a regular expression runs in linear time in a backtracking engine. Governance rules are
 * run by the SDKs (Node, Python, Java: all backtracking engines) inside our users' API servers, on
 * every request: a pattern that is polynomial or exponential on some input lets one rule hang them.
 *
 * The analysis is recheck's automaton checker (https://makenowjust-labs.github.io/recheck/): it
 * builds the pattern's NFA and proves its backtracking complexity (constant, linear, polynomial of a
 * degree, exponential), answering an attack string when it is not linear. Only a proof is accepted:
 * a pattern it cannot analyse (a backreference or lookaround, a timeout) is refused with the reason.
 * It runs out of the event loop (recheck's native binary as a child process where one exists for the
 * platform, else its JavaScript build in a worker thread), so a slow analysis holds no request.
 */

/** How long one pattern may be analysed before it is refused as not proven (recheck's own default is 10 s). */
export const REGEX_ANALYSIS_TIMEOUT_MS = 5_000;

/** Why the pattern is not proven linear in a backtracking engine, or undefined when it is. The pattern must compile. */
export async function regexBacktrackingProblem(pattern: string): Promise<string | undefined> {
  // Loaded on first use: recheck is 2.9 MB of JavaScript that only rule and app saves need.
  const { check } = await import('recheck');
  return problemOf(await check(pattern, '', { checker: 'automaton', timeout: REGEX_ANALYSIS_TIMEOUT_MS }));
}

function problemOf(result: Diagnostics): string | undefined {
  if (result.status === 'safe') return undefined;
  if (result.status === 'vulnerable') {
    const time = result.complexity.type === 'exponential' ? 'exponential time' : `${result.complexity.summary} time`;
    return `takes ${time} in the SDKs' backtracking regex engines on inputs such as ${result.attack.pattern}; anchor it (^…$) and avoid repeating a part that can match the same text two ways`;
  }
  switch (result.error.kind) {
    case 'unsupported':
      return `cannot be proven to run in linear time (${result.error.message}); backreferences and lookarounds are not accepted`;
    case 'timeout':
      return `could not be proven to run in linear time within ${REGEX_ANALYSIS_TIMEOUT_MS} ms; simplify it`;
    default:
      return `could not be analysed: ${'message' in result.error ? result.error.message : result.error.kind}`;
  }
}
