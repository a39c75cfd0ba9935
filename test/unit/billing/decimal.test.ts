import { Decimal } from '../../../values/decimal';
import { minorUnitExponent, roundToMinorUnit, toMinorUnits } from '../../../values/currency';

const d = (v: string | number) => Decimal.from(v);

describe('Decimal', () => {
  it('adds without float error', () => {
    expect(d('0.1').plus('0.2').toString()).toBe('0.3');
    expect(d(0.1).plus(0.2).toString()).toBe('0.3');
  });

  it('multiplies exactly at any scale', () => {
    expect(d('0.0000125').times(1_000_000_000).toString()).toBe('12500');
    expect(d('19.99').times('3').toString()).toBe('59.97');
  });

  it('parses exponents, signs and surrounding spaces; prints without exponent or trailing zeros', () => {
    expect(d('1e-7').toString()).toBe('0.0000001');
    expect(d('2.50E+3').toString()).toBe('2500');
    expect(d(' -0.500 ').toString()).toBe('-0.5');
    expect(d(1e21).toString()).toBe('1000000000000000000000');
  });

  it.each(['', 'abc', '1.2.3', '0x10', '1e-90', 'NaN'])('refuses %j', (text) => {
    expect(() => d(text)).toThrow(RangeError);
  });

  it('refuses non-finite numbers', () => {
    expect(() => d(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it.each([
    ['2.5', 'up', '3'],
    ['2.5', 'down', '2'],
    ['2.5', 'nearest', '3'],
    ['2.4', 'nearest', '2'],
    ['-2.5', 'up', '-2'],
    ['-2.5', 'down', '-3'],
    ['-2.5', 'nearest', '-3'],
    ['-2.4', 'nearest', '-2'],
    ['7', 'up', '7'],
  ] as const)('rounds %s %s to %s', (value, mode, expected) => {
    expect(d(value).round(0, mode).toString()).toBe(expected);
  });

  it('divides with explicit scale and rounding', () => {
    expect(d('10').dividedBy('3', 4, 'nearest').toString()).toBe('3.3333');
    expect(d('10').dividedBy('3', 0, 'up').toString()).toBe('4');
    expect(d('-10').dividedBy('4', 0, 'down').toString()).toBe('-3');
    expect(() => d('1').dividedBy('0', 2, 'up')).toThrow(RangeError);
  });

  it('compares across scales', () => {
    expect(d('1.50').compare('1.5')).toBe(0);
    expect(d('1.499').compare('1.5')).toBe(-1);
    expect(d('-1').compare('-2')).toBe(1);
  });

  it('formats with a fixed number of places', () => {
    expect(d('12.5').toFixed(2)).toBe('12.50');
    expect(d('0.005').toFixed(2)).toBe('0.01');
    expect(d('-0.004').toFixed(2)).toBe('0.00');
    expect(d('7').toFixed(0)).toBe('7');
  });

  it('agrees with BigInt arithmetic on random cent amounts', () => {
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 500; i++) {
      const a = BigInt(next()) - 2n ** 30n;
      const b = BigInt(next());
      const sum = d(`${a}`)
        .dividedBy(100, 2, 'nearest')
        .plus(d(`${b}`).dividedBy(100, 2, 'nearest'));
      expect(sum.toScaledBigInt(2)).toBe(a + b);
    }
  });
});

describe('currency minor units', () => {
  it('knows zero- and three-decimal currencies', () => {
    expect(minorUnitExponent('usd')).toBe(2);
    expect(minorUnitExponent('JPY')).toBe(0);
    expect(minorUnitExponent('kwd')).toBe(3);
  });

  it('rounds amounts once, to the minor unit', () => {
    expect(roundToMinorUnit(d('0.125'), 'usd').toString()).toBe('0.13');
    expect(roundToMinorUnit(d('99.5'), 'jpy').toString()).toBe('100');
    expect(toMinorUnits(d('12.345'), 'usd')).toBe(1235n);
    expect(toMinorUnits(d('1.2345'), 'kwd')).toBe(1235n);
  });
});

describe('Decimal: shared small integers and parsed texts', () => {
  it('gives one instance per small integer, however it was made, with the same value as a fresh one', () => {
    expect(d(5)).toBe(d('5'));
    expect(d(5)).toBe(Decimal.from(5n));
    expect(d(2).plus(3)).toBe(d(5));
    expect(d('0.5').plus('4.5')).toBe(d(5));
    expect(d(-0)).toBe(Decimal.ZERO);
    expect(d(1023).plus(1).toString()).toBe('1024');
    expect(d(-3).toString()).toBe('-3');
    expect(d(9007199254740991).plus(1).toString()).toBe('9007199254740992');
  });

  it('answers parsed texts from its memo with the same values, also after the memo fills and is cleared', () => {
    const values = Array.from({ length: 10_000 }, (_, i) => `${i}.${String(i % 97).padStart(2, '0')}`);
    for (const text of values) expect(d(text).toString()).toBe(text.replace(/\.?0+$/, '') || '0');
    for (const text of values.slice(0, 100)) expect(d(text).toString()).toBe(text.replace(/\.?0+$/, '') || '0');
    expect(() => d('1.2.3')).toThrow(RangeError);
    expect(() => d('1.2.3')).toThrow(RangeError);
  });
});
