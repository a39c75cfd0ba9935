import fc from 'fast-check';
import { actorFunnel, FunnelTally, RetentionTally } from '../../../functions/search/analyses/actor-journeys';
import { funnelAnswer } from '../../../functions/search/analyses/analysis-answers';
import { parseFunnelBody, parseRetentionBody } from '../../../functions/search/analyses/parse-analyses';
import { retentionPeriods } from '../../../functions/search/analyses/retention-periods';
import {
  analysisPageBody,
  funnelPerActor,
  retentionPerActor,
  stepEvents,
  actorReturns,
  EVENTS_PER_STEP,
} from '../../../functions/search/opensearch/event-analyses';
import { createOpenSearchIndex, tenantClauses } from '../../../functions/search/opensearch/opensearch-index';
import { fakeOpenSearch } from './support/fake-opensearch';
import type { SearchContext } from '../../../functions/search/port';
import { BASE, callsOver, DAY, expectedFunnel, step } from '../../conformance/event-analyses-reference';

/**
 * The OpenSearch adapter's part of funnels and retention that runs in the Lambda: the page bodies it
 * sends, how it reads an actor's bucket, and the funnel rule applied to each actor's events (the
 * cluster itself is covered by the conformance suite when OPENSEARCH_URL is set).
 */
const context: SearchContext = {
  scope: { org_id: 'o', app_id: 'a' },
  kind: 'events',
  range: { from: new Date(BASE), to: new Date(BASE + DAY) },
  timeZone: 'Europe/Berlin',
  now: new Date(BASE + DAY),
};
const target = { wrap: () => tenantClauses(context.scope, context.range) };

describe('funnels and retention on OpenSearch', () => {
  it("apply the funnel rule to each actor's events as the rule written out does", () => {
    fc.assert(
      fc.property(callsOver(300), fc.array(step, { minLength: 2, maxLength: 4 }), fc.integer({ min: 1, max: 200 }), (events, steps, windowMinutes) => {
        const query = parseFunnelBody({ steps: steps.map((spec) => ({ query: spec.query })), conversion_window: `${windowMinutes}m` });
        const tally = new FunnelTally(steps.length);
        for (const user of new Set(events.map((call) => call.user).filter((user) => user !== undefined))) {
          // What the page's top_hits hold: each step's events of the actor, by time then id.
          const own = events.filter((call) => call.user === user).sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
          tally.add(
            actorFunnel(
              steps.map((spec) => own.filter((call) => spec.matches(call)).map((call) => ({ time: call.at, id: call.id }))),
              query.windowMs,
            ),
          );
        }
        const answer = funnelAnswer(query, tally.counts());
        expect(answer.steps.map(({ entered, converted, median_time_to_convert_ms }) => ({ entered, converted, median_time_to_convert_ms }))).toEqual(
          expectedFunnel(events, steps, windowMinutes * 60_000),
        );
      }),
    );
  });

  it("page through actors inside the tenant window, asking each step's first events by time then id", () => {
    const query = parseFunnelBody({ steps: [{ query: { term: { 'request.verb': 'GET' } } }, { query: { term: { 'request.verb': 'POST' } } }] });
    const body = analysisPageBody(target, context, 'company_id', { match_all: {} }, funnelPerActor(query, context), { actor: 'c-9' }) as any;
    expect(body.query.bool.filter).toEqual([...tenantClauses(context.scope, context.range), { exists: { field: 'company_id' } }, { match_all: {} }]);
    expect(body.aggs.actors.composite).toEqual({ size: 500, sources: [{ actor: { terms: { field: 'company_id' } } }], after: { actor: 'c-9' } });
    expect(body.aggs.actors.aggs.step_1.aggs.first.top_hits).toEqual({
      size: EVENTS_PER_STEP,
      _source: false,
      sort: [{ 'index_meta.time': { order: 'asc' } }, { 'index_meta.doc_id': { order: 'asc' } }],
    });
    const retention = retentionPerActor(
      parseRetentionBody({ first_event: { match_all: {} }, return_event: { match_all: {} }, interval: 'week' }),
      context,
    ) as any;
    expect(retention.returns.aggs.periods.date_histogram).toEqual({
      field: 'index_meta.time',
      calendar_interval: 'week',
      time_zone: 'Europe/Berlin',
      min_doc_count: 1,
    });
  });

  it("read an actor's bucket, and notice when a step had more events than were returned", () => {
    const bucket = {
      key: { actor: 'u1' },
      step_0: { doc_count: 2, first: { hits: { total: { value: 2 }, hits: [{ sort: [BASE, 'e1'] }, { sort: [BASE + 5, 'e2'] }] } } },
      step_1: { doc_count: 150, first: { hits: { total: { value: 150 }, hits: [{ sort: [BASE + 9, 'e3'] }] } } },
    };
    expect(stepEvents(bucket, 2)).toEqual({
      events: [
        [
          { time: BASE, id: 'e1' },
          { time: BASE + 5, id: 'e2' },
        ],
        [{ time: BASE + 9, id: 'e3' }],
      ],
      cut: true,
    });
    expect(actorReturns({ first: { at: { value: BASE + 1 } }, returns: { periods: { buckets: [{ key: BASE + DAY, doc_count: 3 }] } } })).toEqual({
      first: BASE + 1,
      returns: [BASE + DAY],
    });
    expect(actorReturns({ first: { at: { value: null } }, returns: { periods: { buckets: [] } } })).toEqual({ first: undefined, returns: [] });
  });

  it('count returns per later period from the period keys, once per actor and period', () => {
    const periods = retentionPeriods(BASE, BASE + 4 * DAY, 'day', 'UTC');
    const tally = new RetentionTally(periods, 2);
    tally.add(BASE + 1, [BASE + DAY, BASE + DAY + 5, BASE + 3 * DAY]);
    tally.add(BASE + DAY + 1, [BASE + DAY]);
    const counts = tally.counts();
    expect([...counts.sizes]).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect([...counts.returned].map(([cohort, row]) => [cohort, [...row]])).toEqual([[0, [[1, 1]]]]);
  });
});

describe('funnels and retention on a scripted OpenSearch cluster', () => {
  const hits = (times: number[], id: string) => ({ hits: { total: { value: times.length }, hits: times.map((time, i) => ({ sort: [time, `${id}${i}`] })) } });

  it('page through the actors with the composite after_key and count each actor once', async () => {
    const pages = [
      {
        after_key: { actor: 'u2' },
        buckets: [
          { key: { actor: 'u1' }, step_0: { first: hits([BASE], 'a') }, step_1: { first: hits([BASE + 60_000], 'b') } },
          { key: { actor: 'u2' }, step_0: { first: hits([BASE], 'c') }, step_1: { first: hits([], 'd') } },
        ],
      },
      {
        after_key: { actor: 'u3' },
        buckets: [{ key: { actor: 'u3' }, step_0: { first: hits([BASE], 'e') }, step_1: { first: hits([BASE + 3 * 60_000], 'f') } }],
      },
      { buckets: [] },
    ];
    const { client, requests } = fakeOpenSearch(() => ({
      status: 200,
      body: { took: 1, timed_out: false, hits: { total: { value: 0 }, hits: [] }, aggregations: { actors: pages[requests.length - 1] } },
    }));
    const index = createOpenSearchIndex({ client, indexPrefix: 'p-' });
    const answer = await index.funnel(
      context,
      parseFunnelBody({ steps: [{ query: { term: { 'request.verb': 'GET' } } }, { query: { term: { 'request.verb': 'POST' } } }] }),
    );
    expect(answer.exact).toBe(true);
    expect(answer.steps.map((step) => [step.entered, step.converted, step.median_time_to_convert_ms])).toEqual([
      [3, 2, 120_000],
      [2, null, null],
    ]);
    const afterKeys = requests.map((request) => JSON.parse(request.body!).aggs.actors.composite.after);
    expect(afterKeys).toEqual([undefined, { actor: 'u2' }, { actor: 'u3' }]);
    expect(requests.every((request) => decodeURIComponent(request.path) === '/p-events-*/_search')).toBe(true);
  });

  it("build the retention table from each actor's first event and its return periods", async () => {
    const page = {
      buckets: [
        {
          key: { actor: 'u1' },
          first: { at: { value: BASE + 1000 } },
          returns: {
            periods: {
              buckets: [
                { key: BASE, doc_count: 1 },
                { key: BASE + DAY, doc_count: 4 },
              ],
            },
          },
        },
        { key: { actor: 'u2' }, first: { at: { value: null } }, returns: { periods: { buckets: [{ key: BASE + DAY, doc_count: 1 }] } } },
      ],
    };
    const { client } = fakeOpenSearch(() => ({
      status: 200,
      body: { took: 1, timed_out: false, hits: { total: { value: 0 }, hits: [] }, aggregations: { actors: page } },
    }));
    const utc = { ...context, timeZone: 'UTC', range: { from: new Date(BASE), to: new Date(BASE + 3 * DAY) } };
    const answer = await createOpenSearchIndex({ client, indexPrefix: 'p-' }).retention(
      utc,
      parseRetentionBody({ first_event: { match_all: {} }, return_event: { match_all: {} }, interval: 'day', periods: 2 }),
    );
    expect(answer.cohorts.map(({ size, returned }) => ({ size, returned }))).toEqual([
      { size: 1, returned: [1, 0] },
      { size: 0, returned: [0, null] },
      { size: 0, returned: [null, null] },
    ]);
  });
});
