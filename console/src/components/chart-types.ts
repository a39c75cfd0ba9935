/** One line (or bar series) of a chart: points of [epoch ms, value]; null is a gap. */
export interface Series {
  readonly name: string;
  readonly points: [number, number | null][];
  /** Drawn dashed: a comparison (the previous period), not a measure of the window itself. */
  readonly dashed?: boolean;
}

/** A line drawn across a chart: `horizontal` at a value, `vertical` at a time (epoch ms). */
export interface Annotation {
  readonly name: string;
  readonly direction: string;
  readonly value: number;
}
