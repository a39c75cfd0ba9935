import { isSettled, monthEnd } from '../../../functions/search/opensearch/compaction';

describe('settled months', () => {
  it("reads an events index's month from its name, and nothing from other names", () => {
    expect(monthEnd('p-', 'p-events-2026.03')?.toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(monthEnd('p-', 'p-events-2026.12')?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(monthEnd('', 'events-2026.01')?.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    for (const name of ['p-users', 'q-events-2026.03', 'p-events-2026.13', 'p-events-26.03', 'p-events-2026.3', 'p-events-2026.03.01', 'p-events-x']) {
      expect(monthEnd('p-', name)).toBeUndefined();
    }
  });

  it('counts a month settled 35 days after it ended (the collector takes events up to 30 days old)', () => {
    expect(isSettled('p-', 'p-events-2026.03', new Date('2026-05-05T23:59:59.999Z'))).toBe(false);
    expect(isSettled('p-', 'p-events-2026.03', new Date('2026-05-06T00:00:00.000Z'))).toBe(true);
    expect(isSettled('p-', 'p-events-2026.11', new Date('2026-11-29T00:00:00.000Z'))).toBe(false);
    expect(isSettled('p-', 'p-users', new Date('2030-01-01T00:00:00.000Z'))).toBe(false);
  });
});
