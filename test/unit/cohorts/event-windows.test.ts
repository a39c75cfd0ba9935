import { fixedWindow } from '../../../functions/cohorts/event-windows';

const at = (iso: string) => new Date(iso);
const window = (w: Parameters<typeof fixedWindow>[0], now: string, timeZone = 'UTC', weekStartsOn = 0) => {
  const { start, end } = fixedWindow(w, { now: at(now), timeZone, weekStartsOn });
  return [start.toISOString(), end.toISOString()];
};

test('a rolling window is the last N units up to now', () => {
  expect(window({ last: 90, unit: 'minutes' }, '2026-03-10T12:00:00Z')).toEqual(['2026-03-10T10:30:00.000Z', '2026-03-10T12:00:00.000Z']);
  expect(window({ last: 2, unit: 'days' }, '2026-03-10T12:00:00Z')).toEqual(['2026-03-08T12:00:00.000Z', '2026-03-10T12:00:00.000Z']);
});

test('the current calendar period runs from its start in the time zone up to now; an earlier one is whole', () => {
  expect(window({ calendar: 'day' }, '2026-03-10T03:00:00Z', 'America/New_York')).toEqual(['2026-03-09T04:00:00.000Z', '2026-03-10T03:00:00.000Z']);
  expect(window({ calendar: 'month', periods_ago: 1 }, '2026-03-10T12:00:00Z')).toEqual(['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
  expect(window({ calendar: 'quarter' }, '2026-05-10T12:00:00Z')).toEqual(['2026-04-01T00:00:00.000Z', '2026-05-10T12:00:00.000Z']);
  expect(window({ calendar: 'quarter', periods_ago: 2 }, '2026-05-10T12:00:00Z')).toEqual(['2025-10-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
  expect(window({ calendar: 'year', periods_ago: 1 }, '2026-05-10T12:00:00Z', 'Asia/Tokyo')).toEqual(['2024-12-31T15:00:00.000Z', '2025-12-31T15:00:00.000Z']);
});

test('weeks start on the day the cohort names', () => {
  // Wednesday 11 March 2026.
  expect(window({ calendar: 'week' }, '2026-03-11T12:00:00Z', 'UTC', 0)[0]).toBe('2026-03-08T00:00:00.000Z');
  expect(window({ calendar: 'week' }, '2026-03-11T12:00:00Z', 'UTC', 1)[0]).toBe('2026-03-09T00:00:00.000Z');
  expect(window({ calendar: 'week' }, '2026-03-11T12:00:00Z', 'UTC', 3)[0]).toBe('2026-03-11T00:00:00.000Z');
  expect(window({ calendar: 'week' }, '2026-03-11T12:00:00Z', 'UTC', 4)[0]).toBe('2026-03-05T00:00:00.000Z');
  // The week before, across the change to daylight saving time (8 March 2026 in New York): 7 local days, 167 hours.
  expect(window({ calendar: 'week', periods_ago: 1 }, '2026-03-11T12:00:00Z', 'America/New_York', 1)).toEqual([
    '2026-03-02T05:00:00.000Z',
    '2026-03-09T04:00:00.000Z',
  ]);
});
