/** One line (or bar series) of a chart: points of [epoch ms, value]; null is a gap. */
export interface Series {
  readonly name: string;
  readonly points: [number, number | null][];
}

/** A line drawn across a chart: `horizontal` at a value, `vertical` at a time (epoch ms). */
export interface Annotation {
  readonly name: string;
  readonly direction: string;
  readonly value: number;
}
