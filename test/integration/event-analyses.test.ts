import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * Funnels and retention over HTTP against the local runtime: the events the collector took, the
 * window and time zone of the query string, virtual event types as steps, and 400s naming members.
 */
describe('funnels and retention', () => {
  let rt: TestRuntime;
  const day = 86_400_000;
  // Midnight UTC eight days ago: every event below lies in a known day of the window.
  const start = Math.floor((Date.now() - 8 * day) / day) * day;
  const at = (days: number, minutes = 0) => new Date(start + days * day + minutes * 60_000);
  const call = (n: number, user: string, verb: string, when: Date) =>
    apiCall(
      {
        transaction_id: uuid(n),
        user_id: user,
        request: { time: when.toISOString(), uri: `https://api.example.com/v1/${verb === 'POST' ? 'signup' : 'items'}`, verb, headers: {} },
        response: { time: when.toISOString(), status: 200, headers: {} },
      },
      when,
    );
  const window = `from=${encodeURIComponent(at(0).toISOString())}&to=${encodeURIComponent(at(7).toISOString())}&time_zone=UTC`;
  const post = (path: string, body: unknown) => rt.management('POST', path, {}, body);

  beforeAll(async () => {
    rt = await startTestRuntime('event-analyses');
    const events = [
      // alice signs up on day 0 and calls on days 0, 1 and 3; bob signs up on day 1 and calls only on day 5; carol never signs up.
      call(1, 'alice', 'POST', at(0, 10)),
      call(2, 'alice', 'GET', at(0, 40)),
      call(3, 'alice', 'GET', at(1, 5)),
      call(4, 'alice', 'GET', at(3)),
      call(5, 'bob', 'POST', at(1, 30)),
      call(6, 'bob', 'GET', at(5)),
      call(7, 'carol', 'GET', at(2)),
    ];
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed();
  });
  afterAll(() => rt?.dispose());

  it('answers a funnel per step, with virtual event types as steps', async () => {
    expect((await post('/~/virtual_eventtypes', { name: 'Signed up', criteria: { term: { 'request.verb': 'POST' } } })).status).toBe(201);
    const answer = await post(`/search/~/funnels/events?${window}`, {
      steps: [
        { name: 'Sign-up', query: { term: { virtual_event_types: 'Signed up' } } },
        { name: 'First call', query: { term: { 'request.verb': 'GET' } } },
      ],
      conversion_window: '1d',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      by: 'user_id',
      conversion_window_ms: day,
      exact: true,
      steps: [
        { name: 'Sign-up', entered: 2, converted: 1, conversion_rate: 0.5, overall_conversion_rate: 1, median_time_to_convert_ms: 30 * 60_000 },
        { name: 'First call', entered: 1, converted: null, conversion_rate: null, overall_conversion_rate: 0.5, median_time_to_convert_ms: null },
      ],
    });
  });

  it('answers a retention table by day in the window', async () => {
    const answer = await post(`/search/~/retention/events?${window}`, {
      first_event: { term: { 'request.verb': 'POST' } },
      return_event: { term: { 'request.verb': 'GET' } },
      interval: 'day',
      periods: 3,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.cohorts.slice(0, 2)).toEqual([
      { start: at(0).toISOString(), size: 1, returned: [1, 0, 1], rates: [1, 0, 1] },
      { start: at(1).toISOString(), size: 1, returned: [0, 0, 0], rates: [0, 0, 0] },
    ]);
    expect(answer.body.cohorts).toHaveLength(7);
    expect(answer.body.cohorts[6]).toEqual({ start: at(6).toISOString(), size: 0, returned: [null, null, null], rates: [null, null, null] });
  });

  it('refuses bad bodies with a 400 naming the member', async () => {
    const cases: [string, unknown, string][] = [
      ['/search/~/funnels/events', { steps: [{ query: { match_all: {} } }] }, 'steps'],
      ['/search/~/funnels/events', { steps: [{ query: { match_all: {} } }, { query: { script: {} } }] }, 'steps[1].query.script'],
      ['/search/~/funnels/events', { steps: [{ query: { match_all: {} } }, { query: { match_all: {} } }], conversion_window: '400d' }, 'conversion_window'],
      ['/search/~/funnels/events', { steps: [{ query: { match_all: {} } }, { query: { match_all: {} } }], by: 'session_token' }, 'by'],
      ['/search/~/retention/events', { first_event: { match_all: {} }, return_event: { match_all: {} }, interval: 'hour' }, 'interval'],
      ['/search/~/retention/events', { first_event: { match_all: {} } }, 'return_event'],
    ];
    for (const [path, body, field] of cases) {
      const answer = await post(`${path}?${window}`, body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
    }
    const noStart = await post('/search/~/retention/events', { first_event: { match_all: {} }, return_event: { match_all: {} } });
    expect(noStart.status).toBe(400);
    expect(noStart.body.error.details[0].field).toBe('from');
    expect((await post('/search/~/funnels/events', undefined)).status).toBe(400);
  });
});
