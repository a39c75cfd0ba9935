import fc from 'fast-check';
import { actorFunnel, FunnelTally } from '../../../functions/search/analyses/actor-journeys';
import { funnelAnswer } from '../../../functions/search/analyses/analysis-answers';
import { parseFunnelBody, parseRetentionBody } from '../../../functions/search/analyses/parse-analyses';
import { maskedEvents } from '../../../functions/search/opensearch/event-analyses';
import {
  ACTORS_PER_PASS,
  ActorRangeCutter,
  EVENTS_PER_PASS,
  PASSES_AT_ONCE,
  passesFor,
  SPLIT_FROM_EVENTS,
} from '../../../functions/search/opensearch/analysis-passes';
import { compareUtf8 } from '../../../values/utf8-order';
import { createOpenSearchIndex, tenantClauses } from '../../../functions/search/opensearch/opensearch-index';
import { fakeOpenSearch, type RecordedRequest } from './support/fake-opensearch';
import type { SearchContext } from '../../../functions/search/port';
import { BASE, callsOver, DAY, expectedFunnel, step } from '../../conformance/event-analyses-reference';

/**
 * The OpenSearch adapter's part of funnels and retention that runs in the Lambda: the query whose
 * scores name the steps, the passes, how the script's counts are combined, and the actors followed
 * by id. The Painless itself runs on a real node in the conformance suite.
 */
const context: SearchContext = {
  scope: { org_id: 'o', app_id: 'a' },
  kind: 'events',
  range: { from: new Date(BASE), to: new Date(BASE + DAY) },
  timeZone: 'Europe/Berlin',
  now: new Date(BASE + DAY),
};
const target = { wrap: () => tenantClauses(context.scope, context.range) };
const twoSteps = parseFunnelBody({ steps: [{ query: { term: { 'request.verb': 'GET' } } }, { query: { term: { 'request.verb': 'POST' } } }] });

describe('funnels and retention on OpenSearch', () => {
  it("apply the funnel rule to each actor's events as the rule written out does (what ties are followed with)", () => {
    fc.assert(
      fc.property(callsOver(300), fc.array(step, { minLength: 2, maxLength: 4 }), fc.integer({ min: 1, max: 200 }), (events, steps, windowMinutes) => {
        const query = parseFunnelBody({ steps: steps.map((spec) => ({ query: spec.query })), conversion_window: `${windowMinutes}m` });
        const tally = new FunnelTally(steps.length);
        for (const user of new Set(events.map((call) => call.user).filter((user) => user !== undefined))) {
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

  it('score each event with the bitmask of the queries it matches, inside the tenant window, actors only', () => {
    const query = maskedEvents(target, context, 'company_id', [{ type: 'match_all' }, { type: 'match_all' }, { type: 'match_all' }]) as any;
    expect(query.bool.filter).toEqual([...tenantClauses(context.scope, context.range), { exists: { field: 'company_id' } }]);
    expect(query.bool.should.map((clause: any) => clause.constant_score.boost)).toEqual([1, 2, 4]);
    expect(query.bool.minimum_should_match).toBe(1);
  });
});

describe('funnels and retention on a scripted OpenSearch cluster', () => {
  // The listing of the window's actors that cuts the passes is a search too: a composite aggregation over the actor.
  const isListing = (request: RecordedRequest) => JSON.parse(request.body!).aggs?.values?.composite !== undefined;
  const listed = (actors: Record<string, number>) => ({
    status: 200,
    body: {
      took: 1,
      hits: { hits: [] },
      aggregations: { values: { buckets: Object.entries(actors).map(([value, count]) => ({ key: { value }, doc_count: count })) } },
    },
  });
  const counted = (count: number) => listed({ u1: count });
  const searches = (requests: RecordedRequest[]) => requests.filter((request) => !isListing(request)).map((request) => JSON.parse(request.body!));

  it("add up the passes' counts, with medians over every pass's times, and split a big window into passes over ranges of actors", async () => {
    // 1.1 M events: three passes' worth, rounded up to four (two rounds of two); a's 600,000 cannot be split.
    const actors = { a: 600_000, b: 300_000, c: 199_999, d: 1 };
    const passes: Record<string, unknown> = {
      ':a': { reached: [2, 1], gaps: [[], [60_000]], ambiguous: [] },
      'a:b': { reached: [1, 1], gaps: [[], [180_000]], ambiguous: [] },
      'b:': { reached: [1, 0], gaps: [[], []], ambiguous: [] },
    };
    const rangeOf = (body: any) => {
      const bounds = body.query.bool?.filter?.[0]?.range?.user_id ?? {};
      return `${bounds.gt ?? ''}:${bounds.lte ?? ''}`;
    };
    const { client, requests } = fakeOpenSearch((request) =>
      isListing(request)
        ? listed(actors)
        : { status: 200, body: { took: 1, hits: { hits: [] }, aggregations: { journeys: { value: passes[rangeOf(JSON.parse(request.body!))] } } } },
    );
    const answer = await createOpenSearchIndex({ client, indexPrefix: 'p-' }).funnel(context, twoSteps);
    expect(answer.exact).toBe(true);
    expect(answer.steps.map((step) => [step.entered, step.converted, step.median_time_to_convert_ms])).toEqual([
      [4, 2, 120_000],
      [2, null, null],
    ]);
    const bodies = searches(requests);
    expect(bodies.map(rangeOf).sort()).toEqual([':a', 'a:b', 'b:']);
    // Each pass keeps the masked query's scores (must) and selects its actors without scoring (filter).
    for (const body of bodies) {
      expect(body.query.bool.must).toHaveLength(1);
      expect(body.query.bool.must[0].bool.should).toHaveLength(2);
    }
    expect(bodies[0].aggs.journeys.scripted_metric.params).toMatchObject({ actor: 'user_id', steps: 2, window: twoSteps.windowMs });
  });

  it('cut the listed actors into ranges that cover every actor once, each within a pass, as many as the window needs', () => {
    const listing = fc
      .uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 60 })
      .chain((names) =>
        fc.tuple(fc.constant([...names].sort(compareUtf8)), fc.array(fc.integer({ min: 1, max: 400 }), { minLength: names.length, maxLength: names.length })),
      );
    fc.assert(
      fc.property(listing, fc.integer({ min: 50, max: 5_000 }), ([names, counts], eventsPerPass) => {
        const actors = names.map((value, i) => ({ value, count: counts[i]! }));
        const cutter = new ActorRangeCutter(eventsPerPass);
        for (const actor of actors) cutter.add(actor);
        const ranges = cutter.ranges();
        const events = counts.reduce((sum, count) => sum + count, 0);
        // Every actor in exactly one range; the ends unbounded, so actors the listing missed are read too.
        const holding = (value: string) =>
          ranges.filter(
            (range) => (range.after === undefined || compareUtf8(value, range.after) > 0) && (range.upTo === undefined || compareUtf8(value, range.upTo) <= 0),
          );
        for (const { value } of actors) expect(holding(value)).toHaveLength(1);
        expect(ranges[0]!.after).toBeUndefined();
        expect(ranges[ranges.length - 1]!.upTo).toBeUndefined();
        // A range is cut at the first cut point (one every 1/64 of a pass) where it holds its share of the events (at most a pass's):
        // it passes that share by less than a cut step and its last actor's events.
        const passes = passesFor(events, actors.length, eventsPerPass);
        const share = Math.ceil(events / passes);
        expect(share).toBeLessThanOrEqual(eventsPerPass);
        const cutStep = Math.max(1, Math.floor(eventsPerPass / 64));
        for (const range of ranges) {
          const inRange = actors.filter(({ value }) => holding(value)[0] === range);
          const held = inRange.reduce((sum, actor) => sum + actor.count, 0);
          if (inRange.length > 0) expect(held - inRange[inRange.length - 1]!.count).toBeLessThan(share + cutStep);
          else expect(ranges).toHaveLength(1);
        }
        expect(ranges.length).toBeLessThanOrEqual(passes);
        if (passes > 1 && events >= 2 * (eventsPerPass + 400)) expect(ranges.length).toBeGreaterThan(1);
      }),
    );
  });

  it('read a window in passes that each hold at most a pass of events and actors, whole rounds of passes in flight for a window worth splitting', () => {
    fc.assert(
      fc.property(fc.nat({ max: 20 * EVENTS_PER_PASS }), fc.nat({ max: 20 * ACTORS_PER_PASS }), (events, actors) => {
        const parts = passesFor(events, actors);
        expect(events / parts).toBeLessThanOrEqual(EVENTS_PER_PASS);
        expect(actors / parts).toBeLessThanOrEqual(ACTORS_PER_PASS);
        if (events >= SPLIT_FROM_EVENTS) expect(parts % PASSES_AT_ONCE).toBe(0);
        else if (actors <= ACTORS_PER_PASS) expect(parts).toBe(1);
        // No more passes than the bounds and the rounding ask for.
        expect(parts).toBeLessThan(Math.max(1, Math.ceil(events / EVENTS_PER_PASS), Math.ceil(actors / ACTORS_PER_PASS)) + PASSES_AT_ONCE);
      }),
    );
  });

  it('follow the actors the script names as tied by their ids, in time-then-id order, and count them with the rest', async () => {
    const hit = (actor: string, time: number, id: string, mask: number) => ({ _score: mask, sort: [time, id], fields: { user_id: [actor] } });
    const { client, requests } = fakeOpenSearch((request) => {
      if (isListing(request)) return listed({ u7: 2 });
      if (searches(requests).length === 1)
        return {
          status: 200,
          body: { took: 1, hits: { hits: [] }, aggregations: { journeys: { value: { reached: [1, 0], gaps: [[], []], ambiguous: ['u7'] } } } },
        };
      // u7: a GET and a POST in the same millisecond; id order puts the GET first, so the POST converts it.
      return { status: 200, body: { took: 1, hits: { hits: [hit('u7', BASE, 'a', 1), hit('u7', BASE, 'b', 2)] } } };
    });
    const answer = await createOpenSearchIndex({ client, indexPrefix: 'p-' }).funnel(context, twoSteps);
    expect(answer.steps.map((step) => [step.entered, step.converted])).toEqual([
      [2, 1],
      [1, null],
    ]);
    const follow = searches(requests)[1];
    expect(follow.query.bool.filter).toEqual([{ terms: { user_id: ['u7'] } }]);
    expect(follow.sort).toEqual([{ 'index_meta.time': { order: 'asc' } }, { 'index_meta.doc_id': { order: 'asc' } }]);
    expect(follow.track_scores).toBe(true);
  });

  it('refuse an answer a shard failed, as every search does, instead of counting low', async () => {
    const { client } = fakeOpenSearch((request) =>
      isListing(request)
        ? counted(10)
        : {
            status: 200,
            body: {
              took: 1,
              _shards: { total: 2, failed: 1, failures: [{ reason: { type: 'script_exception', reason: 'runtime error' } }] },
              hits: { hits: [] },
            },
          },
    );
    await expect(createOpenSearchIndex({ client, indexPrefix: 'p-' }).funnel(context, twoSteps)).rejects.toMatchObject({ status: 503 });
  });

  it("build the retention table from the script's cohort:offset counts, periods in the request's zone", async () => {
    const { client, requests } = fakeOpenSearch((request) =>
      isListing(request)
        ? counted(3)
        : { status: 200, body: { took: 1, hits: { hits: [] }, aggregations: { journeys: { value: { '0:0': 2, '0:1': 1, '1:0': 1 } } } } },
    );
    const utc = { ...context, timeZone: 'UTC', range: { from: new Date(BASE), to: new Date(BASE + 3 * DAY) } };
    const answer = await createOpenSearchIndex({ client, indexPrefix: 'p-' }).retention(
      utc,
      parseRetentionBody({ first_event: { match_all: {} }, return_event: { match_all: {} }, interval: 'day', periods: 2 }),
    );
    expect(answer.cohorts.map(({ size, returned }) => ({ size, returned }))).toEqual([
      { size: 2, returned: [1, 0] },
      { size: 1, returned: [0, null] },
      { size: 0, returned: [null, null] },
    ]);
    expect(searches(requests)[0].aggs.journeys.scripted_metric.params).toMatchObject({
      starts: [BASE, BASE + DAY, BASE + 2 * DAY, BASE + 3 * DAY],
      periods: 2,
    });
  });
});
