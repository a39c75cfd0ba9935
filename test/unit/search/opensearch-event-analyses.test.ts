import fc from 'fast-check';
import { actorFunnel, FunnelTally, RetentionTally } from '../../../functions/search/analyses/actor-journeys';
import { funnelAnswer } from '../../../functions/search/analyses/analysis-answers';
import { parseFunnelBody, parseRetentionBody } from '../../../functions/search/analyses/parse-analyses';
import { retentionPeriods } from '../../../functions/search/analyses/retention-periods';
import { analysisPageBody, funnelPerActor, retentionPerActor, stepEvents, actorReturns, EVENTS_PER_STEP } from '../../../functions/search/opensearch/event-analyses';
import { tenantClauses } from '../../../functions/search/opensearch/opensearch-index';
import type { SearchContext } from '../../../functions/search/port';
import { BASE, callsOver, DAY, expectedFunnel, step } from '../../conformance/event-analyses-reference';

/**
 * The OpenSearch adapter's part of funnels and retention that runs in the Lambda: the page bodies it
 * sends, how it reads an actor's bucket, and the funnel rule applied to each actor's events (the
 * cluster itself is covered by the conformance suite when OPENSEARCH_URL is set).
 */
const context: SearchContext = { scope: { org_id: 'o', app_id: 'a' }, kind: 'events', range: { from: new Date(BASE), to: new Date(BASE + DAY) }, timeZone: 'Europe/Berlin', now: new Date(BASE + DAY) };
const target = { wrap: () => tenantClauses(context.scope, context.range) };

describe('funnels and retention on OpenSearch', () => {
  it('apply the funnel rule to each actor\'s events as the rule written out does', () => {
    fc.assert(fc.property(callsOver(300), fc.array(step, { minLength: 2, maxLength: 4 }), fc.integer({ min: 1, max: 200 }), (events, steps, windowMinutes) => {
      const query = parseFunnelBody({ steps: steps.map((spec) => ({ query: spec.query })), conversion_window: `${windowMinutes}m` });
      const tally = new FunnelTally(steps.length);
      for (const user of new Set(events.map((call) => call.user).filter((user) => user !== undefined))) {
        // What the page's top_hits hold: each step's events of the actor, by time then id.
        const own = events.filter((call) => call.user === user).sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
        tally.add(actorFunnel(steps.map((spec) => own.filter((call) => spec.matches(call)).map((call) => ({ time: call.at, id: call.id }))), query.windowMs));
      }
      const answer = funnelAnswer(query, tally.counts());
      expect(answer.steps.map(({ entered, converted, median_time_to_convert_ms }) => ({ entered, converted, median_time_to_convert_ms }))).toEqual(expectedFunnel(events, steps, windowMinutes * 60_000));
    }));
  });

  it('page through actors inside the tenant window, asking each step\'s first events by time then id', () => {
    const query = parseFunnelBody({ steps: [{ query: { term: { 'request.verb': 'GET' } } }, { query: { term: { 'request.verb': 'POST' } } }] });
    const body = analysisPageBody(target, context, 'company_id', { match_all: {} }, funnelPerActor(query, context), { actor: 'c-9' }) as any;
    expect(body.query.bool.filter).toEqual([...tenantClauses(context.scope, context.range), { exists: { field: 'company_id' } }, { match_all: {} }]);
    expect(body.aggs.actors.composite).toEqual({ size: 500, sources: [{ actor: { terms: { field: 'company_id' } } }], after: { actor: 'c-9' } });
    expect(body.aggs.actors.aggs.step_1.aggs.first.top_hits).toEqual({ size: EVENTS_PER_STEP, _source: false, sort: [{ 'index_meta.time': { order: 'asc' } }, { 'index_meta.doc_id': { order: 'asc' } }] });
    const retention = retentionPerActor(parseRetentionBody({ first_event: { match_all: {} }, return_event: { match_all: {} }, interval: 'week' }), context) as any;
    expect(retention.returns.aggs.periods.date_histogram).toEqual({ field: 'index_meta.time', calendar_interval: 'week', time_zone: 'Europe/Berlin', min_doc_count: 1 });
  });

  it('read an actor\'s bucket, and notice when a step had more events than were returned', () => {
    const bucket = {
      key: { actor: 'u1' },
      step_0: { doc_count: 2, first: { hits: { total: { value: 2 }, hits: [{ sort: [BASE, 'e1'] }, { sort: [BASE + 5, 'e2'] }] } } },
      step_1: { doc_count: 150, first: { hits: { total: { value: 150 }, hits: [{ sort: [BASE + 9, 'e3'] }] } } },
    };
    expect(stepEvents(bucket, 2)).toEqual({ events: [[{ time: BASE, id: 'e1' }, { time: BASE + 5, id: 'e2' }], [{ time: BASE + 9, id: 'e3' }]], cut: true });
    expect(actorReturns({ first: { at: { value: BASE + 1 } }, returns: { periods: { buckets: [{ key: BASE + DAY, doc_count: 3 }] } } })).toEqual({ first: BASE + 1, returns: [BASE + DAY] });
    expect(actorReturns({ first: { at: { value: null } }, returns: { periods: { buckets: [] } } })).toEqual({ first: undefined, returns: [] });
  });

  it('count returns per later period from the period keys, once per actor and period', () => {
    const periods = retentionPeriods(BASE, BASE + 4 * DAY, 'day', 'UTC');
    const tally = new RetentionTally(periods, 2);
    tally.add(BASE + 1, [BASE + DAY, BASE + DAY + 5, BASE + 3 * DAY]);
    tally.add(BASE + DAY + 1, [BASE + DAY]);
    const counts = tally.counts();
    expect([...counts.sizes]).toEqual([[0, 1], [1, 1]]);
    expect([...counts.returned].map(([cohort, row]) => [cohort, [...row]])).toEqual([[0, [[1, 1]]]]);
  });
});
