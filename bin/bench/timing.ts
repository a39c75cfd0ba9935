/** Median of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Milliseconds an async function takes. */
export async function timeMs(fn: () => Promise<unknown> | unknown): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** One untimed `before`, then the baseline timed; again, then the subject timed. */
async function alternation(baseline: () => unknown, subject: () => unknown, before?: () => Promise<unknown>): Promise<[number, number]> {
  await before?.();
  const baselineMs = await timeMs(baseline);
  await before?.();
  return [baselineMs, await timeMs(subject)];
}

/**
 * Times a subject against a baseline in alternating rounds (A, B, A, B, ...) so machine noise hits
 * both alike; returns the medians. `before`, untimed, runs before each timed call (clearing a cache).
 */
export async function compare(
  rounds: number,
  baseline: () => unknown,
  subject: () => unknown,
  before?: () => Promise<unknown>,
): Promise<{ baselineMs: number; subjectMs: number }> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const [baselineMs, subjectMs] = await alternation(baseline, subject, before);
    a.push(baselineMs);
    b.push(subjectMs);
  }
  return { baselineMs: median(a), subjectMs: median(b) };
}

/**
 * Runs a baseline and a subject alternately, untimed, for about `budgetMs` (at least 2 rounds, at
 * most `maxRounds`), each after `before` as `compare` runs them. A long-running process and engine
 * have long compiled the paths a query takes; the first tens of calls through a path time the JIT
 * compilers (V8's and the engine's), and they weigh on whichever side has more code to compile.
 * Answers the milliseconds of one round of both, as measured in the last half of the warm-up.
 */
export async function warmUp(
  budgetMs: number,
  baseline: () => unknown,
  subject: () => unknown,
  before?: () => Promise<unknown>,
  maxRounds = 200,
): Promise<{ rounds: number; roundMs: number }> {
  const roundsMs: number[] = [];
  const start = process.hrtime.bigint();
  const elapsedMs = () => Number(process.hrtime.bigint() - start) / 1e6;
  while (roundsMs.length < 2 || (roundsMs.length < maxRounds && elapsedMs() < budgetMs)) {
    const [baselineMs, subjectMs] = await alternation(baseline, subject, before);
    roundsMs.push(baselineMs + subjectMs);
  }
  return { rounds: roundsMs.length, roundMs: median(roundsMs.slice(Math.floor(roundsMs.length / 2))) };
}

/**
 * How a bench times a query pair: a warm-up (warmUp), then as many rounds as fit the query budget
 * at the pair's settled pace, within min/most rounds.
 */
export interface PairTiming {
  readonly queryBudgetMs: number;
  readonly minRounds: number;
  readonly mostRounds: number;
  readonly warmUpBudgetMs: number;
  readonly warmUpMostRounds: number;
}

/** A pair warmed up, then compared over rounds fitted to its settled pace (timing's budget). */
export async function compareSettled(
  timing: PairTiming,
  baseline: () => unknown,
  subject: () => unknown,
  before?: () => Promise<unknown>,
): Promise<{ baselineMs: number; subjectMs: number; rounds: number; warmUpRounds: number }> {
  const warm = await warmUp(timing.warmUpBudgetMs, baseline, subject, before, timing.warmUpMostRounds);
  const fitting = Math.floor(timing.queryBudgetMs / Math.max(1, warm.roundMs));
  const rounds = Math.max(timing.minRounds, Math.min(timing.mostRounds, fitting));
  return { ...(await compare(rounds, baseline, subject, before)), rounds, warmUpRounds: warm.rounds };
}

export const fmt = (n: number, digits = 2) => n.toFixed(digits);

/** Samples the process's resident memory every 100 ms until `stop`, which answers the peak in MB. */
export function trackPeakRss(): { stop: () => number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 100);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.round(Math.max(peak, process.memoryUsage().rss) / 1e6);
    },
  };
}
