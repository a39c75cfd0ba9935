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
    await before?.();
    a.push(await timeMs(baseline));
    await before?.();
    b.push(await timeMs(subject));
  }
  return { baselineMs: median(a), subjectMs: median(b) };
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
