/**
 * Java's Double.toString, which OpenSearch uses to print a number in a range bucket's key ("100.0-200.0",
 * "*-1.0E7"): plain decimal with at least one fraction digit for magnitudes in [1e-3, 1e7), computerized
 * scientific notation ("1.0E7", "1.5E-4") otherwise. Both Java (17+) and JavaScript print the shortest digits
 * that round-trip, so only the layout differs.
 */
export function javaDoubleString(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const magnitude = Math.abs(value);
  const [mantissa = '0', exponentText = '0'] = magnitude.toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    if (exponent >= 0) {
      const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
      const fraction = digits.slice(exponent + 1);
      return `${sign}${whole}.${fraction === '' ? '0' : fraction}`;
    }
    return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  }
  const fraction = digits.slice(1);
  return `${sign}${digits[0]}.${fraction === '' ? '0' : fraction}E${exponent}`;
}
