import fc from 'fast-check';

/**
 * Funnels and retention by hand: random API calls, step queries with what they mean in plain
 * code, and the funnel rule written out (docs/management-api.md, Funnels and retention), for the conformance tests
 * of both backends and the OpenSearch adapter's own computation.
 */

export interface Call {
  readonly id: string;
  readonly user: string | undefined;
  readonly verb: string;
  readonly status: number;
  readonly at: number;
}

export interface StepSpec {
  readonly query: Record<string, unknown>;
  readonly matches: (call: Call) => boolean;
}

export const VERBS = ['GET', 'POST', 'PUT'];
export const MINUTE = 60_000;
export const DAY = 86_400_000;
// A Monday, so UTC weeks start at BASE + 7n days.
export const BASE = Date.UTC(2025, 2, 3);

export const step: fc.Arbitrary<StepSpec> = fc.oneof(
  fc.constantFrom(...VERBS).map((verb) => ({ query: { term: { 'request.verb': verb } }, matches: (call: Call) => call.verb === verb })),
  fc.constantFrom(200, 500).map((status) => ({ query: { range: { 'response.status': { gte: status } } }, matches: (call: Call) => call.status >= status })),
);

/** Few users and coarse minutes, so ties in time and repeated steps are common. */
export const callsOver = (spanMinutes: number): fc.Arbitrary<Call[]> =>
  fc
    .array(
      fc.record({
        user: fc.option(fc.constantFrom('u1', 'u2', 'u3', 'u4'), { freq: 8 }),
        verb: fc.constantFrom(...VERBS),
        status: fc.constantFrom(200, 500),
        minute: fc.integer({ min: 0, max: spanMinutes }),
      }),
      { minLength: 1, maxLength: 40 },
    )
    .map((rows) =>
      rows.map((row, i) => ({
        id: `e${String(i).padStart(3, '0')}`,
        user: row.user ?? undefined,
        verb: row.verb,
        status: row.status,
        at: BASE + row.minute * MINUTE,
      })),
    );

/** The funnel rule written out: entry at the first step-1 event, then the first event of each step strictly after the last one (by time, then id), within the window. */
export function expectedFunnel(events: readonly Call[], steps: readonly StepSpec[], windowMs: number) {
  const reached = steps.map(() => 0);
  const gaps: number[][] = steps.map(() => []);
  const users = [...new Set(events.map((call) => call.user).filter((user): user is string => user !== undefined))];
  for (const user of users) {
    const own = events.filter((call) => call.user === user).sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
    const entry = own.find((call) => steps[0]!.matches(call));
    if (!entry) continue;
    reached[0]! += 1;
    let previous = entry;
    for (let k = 1; k < steps.length; k += 1) {
      const at = own.indexOf(previous);
      const next = own.slice(at + 1).find((call) => steps[k]!.matches(call));
      if (!next || next.at - entry.at > windowMs) break;
      reached[k]! += 1;
      gaps[k]!.push(next.at - previous.at);
      previous = next;
    }
  }
  const median = (values: number[]) => {
    if (values.length === 0) return null;
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  return steps.map((_, k) => ({
    entered: reached[k],
    converted: k === steps.length - 1 ? null : reached[k + 1],
    median_time_to_convert_ms: k === steps.length - 1 ? null : median(gaps[k + 1]!),
  }));
}
