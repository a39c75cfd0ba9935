import { periodText } from './period-text';

describe('periodText', () => {
  it('says how often a template goes out, in words', () => {
    expect(periodText(undefined)).toBe('once per recipient');
    expect(periodText('1w')).toBe('every week');
    expect(periodText('1M')).toBe('every month');
    expect(periodText('1m')).toBe('every minute');
    expect(periodText('7d')).toBe('every 7 days');
    expect(periodText('12h')).toBe('every 12 hours');
  });

  it('shows a period it cannot read as it is', () => {
    expect(periodText('fortnightly')).toBe('fortnightly');
  });
});
