import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { BASE, callsOver, DAY, expectedFunnel, MINUTE, step, type Call } from '../../conformance/event-analyses-reference';
import { parseFunnelBody, parseRetentionBody } from '../../../functions/search/analyses/parse-analyses';
import { eventDocument } from '../../../functions/search/index-documents';
import type { SearchContext, TenantScope } from '../../../functions/search/port';
import { conformanceBackends, indexForTests } from '../../conformance/backends';

/**
 * Funnels and retention on every search backend, against answers computed by hand in plain code
 * from the same random events (never from a backend's answer).
 */

describe.each(conformanceBackends({ openSearchSmallPages: true }))('funnels and retention: $name', (backend) => {
  const opened = indexForTests(backend);

  const load = async (events: readonly Call[]): Promise<TenantScope> => {
    const scope = { org_id: 'org-analyses', app_id: `app-${randomUUID()}` };
    await opened().index(
      events.map((call) => {
        const time = new Date(call.at).toISOString();
        return eventDocument(scope, 'event', {
          id: call.id,
          time,
          received_at: time,
          data: {
            request: { time, uri: 'https://api.example.com/x', verb: call.verb },
            response: { time, status: call.status },
            ...(call.user ? { user_id: call.user } : {}),
          },
        });
      }),
    );
    await opened().refresh();
    return scope;
  };
  const context = (scope: TenantScope, from: number, to: number, timeZone = 'UTC'): SearchContext => ({
    scope,
    kind: 'events',
    range: { from: new Date(from), to: new Date(to) },
    timeZone,
    now: new Date(to),
  });

  it('a funnel counts each step as the rule written out does, ties and repeats included', async () => {
    await fc.assert(
      fc.asyncProperty(
        callsOver(300),
        fc.array(step, { minLength: 2, maxLength: 4 }),
        fc.integer({ min: 1, max: 200 }),
        async (events, steps, windowMinutes) => {
          const scope = await load(events);
          const answer = await opened().funnel(
            context(scope, BASE, BASE + DAY),
            parseFunnelBody({ steps: steps.map((spec) => ({ query: spec.query })), conversion_window: `${windowMinutes}m` }),
          );
          expect(answer.exact).toBe(true);
          expect(answer.steps.map(({ entered, converted, median_time_to_convert_ms }) => ({ entered, converted, median_time_to_convert_ms }))).toEqual(
            expectedFunnel(events, steps, windowMinutes * MINUTE),
          );
        },
      ),
      { numRuns: 25 },
    );
  });

  it("a funnel without ties, across a month's end (two monthly indices on OpenSearch), counts as the rule written out does", async () => {
    const monthEnd = Date.UTC(2025, 3, 1);
    await fc.assert(
      fc.asyncProperty(
        callsOver(300),
        fc.array(step, { minLength: 2, maxLength: 4 }),
        fc.integer({ min: 1, max: 200 }),
        async (drawn, steps, windowMinutes) => {
          // Each event its own minute (no two share a time), half of them before the month's end.
          const events = drawn.map((call, i) => ({ ...call, at: monthEnd + (i - (drawn.length >> 1)) * 7 * MINUTE }));
          const scope = await load(events);
          const answer = await opened().funnel(
            context(scope, monthEnd - DAY, monthEnd + DAY),
            parseFunnelBody({ steps: steps.map((spec) => ({ query: spec.query })), conversion_window: `${windowMinutes}m` }),
          );
          expect(answer.steps.map(({ entered, converted, median_time_to_convert_ms }) => ({ entered, converted, median_time_to_convert_ms }))).toEqual(
            expectedFunnel(events, steps, windowMinutes * MINUTE),
          );
        },
      ),
      { numRuns: 15 },
    );
  });

  it('a funnel over actors whose names sort differently in UTF-8 and UTF-16 counts as the rule written out does (passes cut between them)', async () => {
    // An astral character sorts after a fullwidth one in UTF-8 and UTF-16 code points, before it in UTF-16 units.
    const names: Record<string, string> = { u1: '𝒳', u2: 'ｚ', u3: 'a', u4: 'ab' };
    await fc.assert(
      fc.asyncProperty(callsOver(300), fc.array(step, { minLength: 2, maxLength: 3 }), async (drawn, steps) => {
        const events = drawn.map((call) => ({ ...call, ...(call.user === undefined ? {} : { user: names[call.user] ?? call.user }) }));
        const scope = await load(events);
        const answer = await opened().funnel(
          context(scope, BASE, BASE + DAY),
          parseFunnelBody({ steps: steps.map((spec) => ({ query: spec.query })), conversion_window: '90m' }),
        );
        expect(answer.steps.map(({ entered, converted, median_time_to_convert_ms }) => ({ entered, converted, median_time_to_convert_ms }))).toEqual(
          expectedFunnel(events, steps, 90 * MINUTE),
        );
      }),
      { numRuns: 10 },
    );
  });

  it('a funnel sees only the window: events before from or at to take no part', async () => {
    const events: Call[] = [
      { id: 'a', user: 'u1', verb: 'GET', status: 200, at: BASE - MINUTE },
      { id: 'b', user: 'u1', verb: 'POST', status: 200, at: BASE + MINUTE },
      { id: 'c', user: 'u2', verb: 'GET', status: 200, at: BASE + 2 * MINUTE },
      { id: 'd', user: 'u2', verb: 'POST', status: 200, at: BASE + 10 * MINUTE },
    ];
    const scope = await load(events);
    const answer = await opened().funnel(
      context(scope, BASE, BASE + 10 * MINUTE),
      parseFunnelBody({
        steps: [
          { name: 'Read', query: { term: { 'request.verb': 'GET' } } },
          { name: 'Write', query: { term: { 'request.verb': 'POST' } } },
        ],
      }),
    );
    expect(answer.steps).toEqual([
      { name: 'Read', entered: 1, converted: 0, conversion_rate: 0, overall_conversion_rate: 1, median_time_to_convert_ms: null },
      { name: 'Write', entered: 0, converted: null, conversion_rate: null, overall_conversion_rate: 0, median_time_to_convert_ms: null },
    ]);
  });

  it("a retention table counts each cohort's returns per later day, and leaves periods after the window null", async () => {
    await fc.assert(
      fc.asyncProperty(callsOver(6 * 24 * 60), fc.integer({ min: 1, max: 5 }), async (events, periods) => {
        const scope = await load(events);
        const to = BASE + 5 * DAY + 12 * 3_600_000;
        const answer = await opened().retention(
          context(scope, BASE, to),
          parseRetentionBody({
            first_event: { term: { 'request.verb': 'POST' } },
            return_event: { range: { 'response.status': { gte: 500 } } },
            interval: 'day',
            periods,
          }),
        );
        // By hand: day n of the window is [BASE + n days, BASE + n + 1 days); the window holds days 0–5.
        const inWindow = events.filter((call) => call.user !== undefined && call.at < to);
        const dayOf = (at: number) => Math.floor((at - BASE) / DAY);
        const expected = Array.from({ length: 6 }, (_, cohort) => {
          const members = [...new Set(inWindow.filter((call) => call.verb === 'POST').map((call) => call.user!))].filter(
            (user) => dayOf(Math.min(...inWindow.filter((call) => call.user === user && call.verb === 'POST').map((call) => call.at))) === cohort,
          );
          const returned = Array.from({ length: periods }, (_, i) => {
            const day = cohort + i + 1;
            if (day > 5) return null;
            return members.filter((user) => inWindow.some((call) => call.user === user && call.status >= 500 && dayOf(call.at) === day)).length;
          });
          return { start: new Date(BASE + cohort * DAY).toISOString(), size: members.length, returned };
        });
        expect(answer.exact).toBe(true);
        expect(answer.cohorts.map(({ start, size, returned }) => ({ start, size, returned }))).toEqual(expected);
        for (const cohort of answer.cohorts)
          expect(cohort.rates).toEqual(cohort.returned.map((count) => (count === null ? null : cohort.size === 0 ? 0 : count / cohort.size)));
      }),
      { numRuns: 20 },
    );
  });

  it('retention periods are calendar periods of the time zone: Berlin days, Monday weeks, months', async () => {
    // 23:30 UTC on Sunday 2 March is Monday 00:30 in Berlin (UTC+1).
    const events: Call[] = [
      { id: 'a', user: 'u1', verb: 'POST', status: 200, at: Date.UTC(2025, 2, 2, 23, 30) },
      { id: 'b', user: 'u1', verb: 'GET', status: 500, at: Date.UTC(2025, 2, 3, 23, 30) },
      { id: 'c', user: 'u2', verb: 'POST', status: 200, at: Date.UTC(2025, 2, 2, 22, 30) },
      { id: 'd', user: 'u2', verb: 'GET', status: 500, at: Date.UTC(2025, 2, 10, 1, 0) },
    ];
    const scope = await load(events);
    const body = { first_event: { term: { 'request.verb': 'POST' } }, return_event: { range: { 'response.status': { gte: 500 } } }, periods: 2 };
    const days = await opened().retention(
      context(scope, Date.UTC(2025, 2, 1, 23), Date.UTC(2025, 2, 4, 23), 'Europe/Berlin'),
      parseRetentionBody({ ...body, interval: 'day' }),
    );
    expect(days.cohorts.map(({ start, size, returned }) => ({ start, size, returned }))).toEqual([
      { start: '2025-03-01T23:00:00.000Z', size: 1, returned: [0, 0] },
      { start: '2025-03-02T23:00:00.000Z', size: 1, returned: [1, null] },
      { start: '2025-03-03T23:00:00.000Z', size: 0, returned: [null, null] },
    ]);
    const weeks = await opened().retention(
      context(scope, Date.UTC(2025, 1, 23, 23), Date.UTC(2025, 2, 16, 23), 'Europe/Berlin'),
      parseRetentionBody({ ...body, interval: 'week' }),
    );
    expect(weeks.cohorts.map(({ start, size, returned }) => ({ start, size, returned }))).toEqual([
      { start: '2025-02-23T23:00:00.000Z', size: 1, returned: [0, 1] },
      { start: '2025-03-02T23:00:00.000Z', size: 1, returned: [0, null] },
      { start: '2025-03-09T23:00:00.000Z', size: 0, returned: [null, null] },
    ]);
    const months = await opened().retention(
      context(scope, Date.UTC(2025, 1, 1), Date.UTC(2025, 3, 1), 'UTC'),
      parseRetentionBody({ ...body, interval: 'month' }),
    );
    expect(months.cohorts.map(({ start, size, returned }) => ({ start, size, returned }))).toEqual([
      { start: '2025-02-01T00:00:00.000Z', size: 0, returned: [0, null] },
      { start: '2025-03-01T00:00:00.000Z', size: 2, returned: [null, null] },
    ]);
  });
});
