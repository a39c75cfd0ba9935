/**
 * Exact decimal arithmetic for money and usage: a value is `coefficient × 10^-scale` with a BigInt
 * coefficient, so `0.1 + 0.2` is `0.3` and a price of `0.0000125` per call times a billion calls is
 * exact. Floats never touch an amount.
 */

/** How a value is rounded to fewer decimal places. `up`/`down` go toward +∞/−∞; `nearest` rounds half away from zero. */
export type RoundingMode = 'up' | 'down' | 'nearest';

const DECIMAL_TEXT = /^([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Scales beyond this are refused: no price or quantity needs them, and they would let inputs blow up BigInt sizes. */
const MAX_SCALE = 40;
/**
 * Integers below this are shared instances (values are immutable): a billing run turns millions of
 * small usage counts into decimals, and each would otherwise be a Decimal and a BigInt of its own.
 */
const SHARED_INTEGERS = 1024;
const SHARED_INTEGERS_BIG = BigInt(SHARED_INTEGERS);
/** Parsed texts kept (prices and amounts repeat across a run's reports); cleared when full. */
const PARSED_TEXTS = 4096;

export class Decimal {
  private static readonly integers: readonly Decimal[] = Array.from({ length: SHARED_INTEGERS }, (_, n) => new Decimal(BigInt(n), 0));
  private static readonly parsed = new Map<string, Decimal>();
  static readonly ZERO = Decimal.integers[0]!;
  static readonly ONE = Decimal.integers[1]!;

  private constructor(
    readonly coefficient: bigint,
    readonly scale: number,
  ) {}

  /** Parses `"12"`, `"-0.0025"`, `"1e-7"`, a bigint, or a finite number (through its shortest decimal text). */
  static from(value: string | number | bigint | Decimal): Decimal {
    if (value instanceof Decimal) return value;
    if (typeof value === 'bigint') return Decimal.of(value, 0);
    if (typeof value === 'number') {
      if (Number.isSafeInteger(value)) return value >= 0 && value < SHARED_INTEGERS ? Decimal.integers[value]! : new Decimal(BigInt(value), 0);
      if (!Number.isFinite(value)) throw new RangeError(`${value} is not a finite number`);
      return Decimal.from(String(value));
    }
    let known = Decimal.parsed.get(value);
    if (known === undefined) {
      known = Decimal.parse(value);
      if (Decimal.parsed.size >= PARSED_TEXTS) Decimal.parsed.clear();
      Decimal.parsed.set(value, known);
    }
    return known;
  }

  /** A coefficient and scale as a decimal, small integers shared. */
  private static of(coefficient: bigint, scale: number): Decimal {
    return scale === 0 && coefficient >= 0n && coefficient < SHARED_INTEGERS_BIG ? Decimal.integers[Number(coefficient)]! : new Decimal(coefficient, scale);
  }

  private static parse(value: string): Decimal {
    const match = DECIMAL_TEXT.exec(value.trim());
    if (!match) throw new RangeError(`"${value}" is not a decimal number`);
    const [, sign, whole, fraction = '', exponentText = '0'] = match;
    const exponent = Number(exponentText);
    let scale = fraction.length - exponent;
    let coefficient = BigInt(`${whole}${fraction}`);
    if (scale < 0) {
      if (-scale > MAX_SCALE) throw new RangeError(`"${value}" is too large`);
      coefficient *= 10n ** BigInt(-scale);
      scale = 0;
    }
    if (scale > MAX_SCALE) throw new RangeError(`"${value}" has more than ${MAX_SCALE} decimal places`);
    return Decimal.of(sign === '-' ? -coefficient : coefficient, scale).normalised();
  }

  /** True when `text` parses as a decimal (for schema refinements). */
  static isDecimalText(text: string): boolean {
    try {
      Decimal.from(text);
      return true;
    } catch {
      return false;
    }
  }

  static sum(values: readonly Decimal[]): Decimal {
    return values.reduce((total, v) => total.plus(v), Decimal.ZERO);
  }

  plus(other: Decimal | string | number | bigint): Decimal {
    const o = Decimal.from(other);
    const scale = Math.max(this.scale, o.scale);
    return Decimal.of(this.at(scale) + o.at(scale), scale).normalised();
  }

  minus(other: Decimal | string | number | bigint): Decimal {
    return this.plus(Decimal.from(other).negated());
  }

  times(other: Decimal | string | number | bigint): Decimal {
    const o = Decimal.from(other);
    return Decimal.of(this.coefficient * o.coefficient, this.scale + o.scale).normalised();
  }

  /** Division rounded to `scale` decimal places with `mode` (division is the one inexact operation). */
  dividedBy(other: Decimal | string | number | bigint, scale: number, mode: RoundingMode): Decimal {
    const o = Decimal.from(other);
    if (o.coefficient === 0n) throw new RangeError('division by zero');
    // this / o = (c1 / 10^s1) / (c2 / 10^s2); scaled to `scale` places: c1 × 10^(scale + s2 − s1) / c2
    const shift = scale + o.scale - this.scale;
    let numerator = this.coefficient;
    let denominator = o.coefficient;
    if (shift >= 0) numerator *= 10n ** BigInt(shift);
    else denominator *= 10n ** BigInt(-shift);
    return Decimal.of(divideRounded(numerator, denominator, mode), scale).normalised();
  }

  negated(): Decimal {
    return Decimal.of(-this.coefficient, this.scale);
  }

  /** Rounds to `scale` decimal places (0 gives an integer). */
  round(scale: number, mode: RoundingMode): Decimal {
    if (this.scale <= scale) return this;
    return Decimal.of(divideRounded(this.coefficient, 10n ** BigInt(this.scale - scale), mode), scale).normalised();
  }

  compare(other: Decimal | string | number | bigint): -1 | 0 | 1 {
    const o = Decimal.from(other);
    const scale = Math.max(this.scale, o.scale);
    const a = this.at(scale);
    const b = o.at(scale);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  isZero(): boolean {
    return this.coefficient === 0n;
  }

  isNegative(): boolean {
    return this.coefficient < 0n;
  }

  min(other: Decimal): Decimal {
    return this.compare(other) <= 0 ? this : other;
  }

  max(other: Decimal): Decimal {
    return this.compare(other) >= 0 ? this : other;
  }

  /** The value as an integer of `scale`-ths (e.g. cents for scale 2); throws if it has more places. */
  toScaledBigInt(scale: number): bigint {
    if (this.scale > scale) throw new RangeError(`${this.toString()} has more than ${scale} decimal places`);
    return this.at(scale);
  }

  /** An integer value as a safe JS number (usage counts); throws if fractional or out of range. */
  toSafeInteger(): number {
    if (this.scale !== 0) throw new RangeError(`${this.toString()} is not an integer`);
    const n = Number(this.coefficient);
    if (!Number.isSafeInteger(n)) throw new RangeError(`${this.toString()} is beyond the safe integer range`);
    return n;
  }

  /** A JS number for JSON answers (amounts already rounded to their currency's places are exact enough to print). */
  toNumber(): number {
    return Number(this.toString());
  }

  /** Plain decimal text, no exponent, no trailing zeros: `"0.0025"`, `"-12"`. */
  toString(): string {
    if (this.scale === 0) return this.coefficient.toString();
    const negative = this.coefficient < 0n;
    const digits = (negative ? -this.coefficient : this.coefficient).toString().padStart(this.scale + 1, '0');
    const whole = digits.slice(0, digits.length - this.scale);
    const fraction = digits.slice(digits.length - this.scale);
    return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
  }

  /** Text with exactly `places` decimals (after rounding with `mode`), e.g. `"12.50"`. */
  toFixed(places: number, mode: RoundingMode = 'nearest'): string {
    const rounded = this.round(places, mode);
    const value = rounded.at(places);
    const negative = value < 0n;
    const digits = (negative ? -value : value).toString().padStart(places + 1, '0');
    const whole = digits.slice(0, digits.length - places);
    const fraction = digits.slice(digits.length - places);
    return `${negative ? '-' : ''}${whole}${places > 0 ? `.${fraction}` : ''}`;
  }

  toJSON(): string {
    return this.toString();
  }

  private at(scale: number): bigint {
    return scale === this.scale ? this.coefficient : this.coefficient * 10n ** BigInt(scale - this.scale);
  }

  private normalised(): Decimal {
    let { coefficient, scale } = this;
    while (scale > 0 && coefficient % 10n === 0n) {
      coefficient /= 10n;
      scale -= 1;
    }
    return scale === this.scale ? this : Decimal.of(coefficient, scale);
  }
}

function divideRounded(numerator: bigint, denominator: bigint, mode: RoundingMode): bigint {
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const quotient = numerator / denominator; // truncates toward zero
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  const positive = numerator > 0n;
  switch (mode) {
    case 'up':
      return positive ? quotient + 1n : quotient;
    case 'down':
      return positive ? quotient : quotient - 1n;
    case 'nearest': {
      const twice = (remainder < 0n ? -remainder : remainder) * 2n;
      if (twice >= denominator) return positive ? quotient + 1n : quotient - 1n;
      return quotient;
    }
  }
}
