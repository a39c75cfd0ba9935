/**
 * Compares our answer with the hand-written SQL's, so a fast wrong answer cannot pass the
 * benchmark: JSON-like values, numbers equal within a relative tolerance (floating-point sums and
 * interpolated percentiles may differ in the last bits), bigints as numbers.
 */

const RELATIVE_TOLERANCE = 1e-9;

/**
 * The first difference between `ours` and `expected` as "path: ours ≠ expected", or undefined when
 * they agree. `estimated` names fields whose numbers are estimates (OpenSearch's t-digest
 * percentiles depend on the order shard and segment results are merged in), compared within
 * ESTIMATE_TOLERANCE instead.
 */
export function firstDifference(ours: unknown, expected: unknown, path = '$', estimated: ReadonlySet<string> = NONE): string | undefined {
  const a = typeof ours === 'bigint' ? Number(ours) : ours;
  const b = typeof expected === 'bigint' ? Number(expected) : expected;
  if (typeof a === 'number' && typeof b === 'number') {
    const scale = Math.max(Math.abs(a), Math.abs(b), 1);
    const tolerance = estimated.has(path.slice(path.lastIndexOf('.') + 1)) ? ESTIMATE_TOLERANCE : RELATIVE_TOLERANCE;
    return Math.abs(a - b) <= tolerance * scale ? undefined : `${path}: ${a} ≠ ${b}`;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${path}: ${show(a)} ≠ ${show(b)}`;
    if (a.length !== b.length) return `${path}: ${a.length} elements ≠ ${b.length} elements`;
    for (let i = 0; i < a.length; i++) {
      const difference = firstDifference(a[i], b[i], `${path}[${i}]`, estimated);
      if (difference) return difference;
    }
    return undefined;
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const difference = firstDifference(a[key], b[key], `${path}.${key}`, estimated);
      if (difference) return difference;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : `${path}: ${show(a)} ≠ ${show(b)}`;
}

const NONE: ReadonlySet<string> = new Set();
/**
 * 3%: OpenSearch's t-digest (compression 100) was 1.2–1.4% off the exact p50/p99 at 1 M events (1% failed the
 * bench's own check there); a wrong bucket or field differs far more.
 */
const ESTIMATE_TOLERANCE = 0.03;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
  return text === undefined ? String(value) : text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
