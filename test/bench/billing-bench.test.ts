import { FULL_BILLING_BENCH, billingScaleOption } from '../../bin/bench/billing';

describe('billing bench options', () => {
  it('runs the issue size unless --scale names a fraction', () => {
    expect(billingScaleOption(['billing'])).toBe(1);
    expect(billingScaleOption(['billing', '--scale', '0.25'])).toBe(0.25);
    expect(billingScaleOption(['--scale=0.1', 'billing'])).toBe(0.1);
    expect(FULL_BILLING_BENCH).toEqual({ companies: 2_000, meters: 5, events: 1_000_000, days: 30 });
  });

  it('refuses a scale outside (0, 1] or missing, naming the value', () => {
    expect(() => billingScaleOption(['--scale', '0'])).toThrow('--scale must be a number in (0, 1], got "0"');
    expect(() => billingScaleOption(['--scale', '2'])).toThrow('got "2"');
    expect(() => billingScaleOption(['--scale'])).toThrow('got ""');
    expect(() => billingScaleOption(['--scale=abc'])).toThrow('got "abc"');
  });
});
