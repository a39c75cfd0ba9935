import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { eventDocument } from '../../../functions/search/index-documents';
import type { SearchableIndex, SearchContext, TenantScope } from '../../../functions/search/port';
import { parseQuery, parseSearchRequest } from '../../../functions/search/dsl';
import type { VirtualEventTypeDefinition } from '../../../functions/search/virtual-event-types/expand-query';
import { withVirtualEventTypes } from '../../../functions/search/virtual-event-types/with-virtual-event-types';
import { conformanceBackends, indexForTests } from '../../conformance/backends';

/**
 * Virtual event types on every search backend: random events and random types, each search naming
 * `virtual_event_types` compared with the same selection computed in plain code from the events
 * and the types' own predicates (never from what a backend answered).
 */

interface Call {
  readonly id: string;
  readonly verb: string;
  readonly status: number;
  readonly weight: number;
  readonly at: number;
}

/** A type's criteria, with what it means in plain code. */
interface TypeSpec {
  readonly criteria: Record<string, unknown>;
  readonly matches: (call: Call) => boolean;
}

const VERBS = ['GET', 'POST', 'PUT', 'DELETE'];
const STATUSES = [200, 201, 404, 500];
const BASE = Date.UTC(2025, 2, 1);

const typeSpec: fc.Arbitrary<TypeSpec> = fc.oneof(
  fc.constantFrom(...VERBS).map((verb) => ({ criteria: { term: { 'request.verb': verb } }, matches: (call: Call) => call.verb === verb })),
  fc
    .constantFrom(...STATUSES)
    .map((status) => ({ criteria: { range: { 'response.status': { gte: status } } }, matches: (call: Call) => call.status >= status })),
  fc
    .constantFrom(...VERBS)
    .map((verb) => ({ criteria: { query: { bool: { must_not: [{ term: { 'request.verb': verb } }] } } }, matches: (call: Call) => call.verb !== verb })),
);

const calls: fc.Arbitrary<Call[]> = fc
  .array(
    fc.record({
      verb: fc.constantFrom(...VERBS),
      status: fc.constantFrom(...STATUSES),
      weight: fc.integer({ min: 1, max: 5 }),
      minute: fc.integer({ min: 0, max: 600 }),
    }),
    { minLength: 1, maxLength: 30 },
  )
  .map((rows) => rows.map((row, i) => ({ id: `e${i}`, verb: row.verb, status: row.status, weight: row.weight, at: BASE + row.minute * 60_000 })));

/** Named types: the same names as the test's terms (t0, t1, …) so some names repeat across cases. */
const namedTypes: fc.Arbitrary<{ name: string; spec: TypeSpec }[]> = fc
  .array(typeSpec, { minLength: 1, maxLength: 5 })
  .map((specs) => specs.map((spec, i) => ({ name: `t${i}`, spec })));

describe.each(conformanceBackends())('virtual event types: $name', (backend) => {
  const opened = indexForTests(backend);

  const load = async (scope: TenantScope, events: readonly Call[]) => {
    await opened().index(
      events.map((call) => {
        const time = new Date(call.at).toISOString();
        return eventDocument(scope, 'event', {
          id: call.id,
          time,
          received_at: time,
          data: {
            request: { time, uri: `https://api.example.com/items/${call.id}`, verb: call.verb },
            response: { time, status: call.status },
            weight: call.weight,
          },
        });
      }),
    );
    await opened().refresh();
  };
  const contextOf = (scope: TenantScope): SearchContext => ({ scope, kind: 'events', timeZone: 'UTC', now: new Date(BASE + 86_400_000) });
  const typed = (types: { name: string; spec: TypeSpec }[]) => {
    const definitions: VirtualEventTypeDefinition[] = types.map(({ name, spec }) => ({
      name,
      query: parseQuery((spec.criteria['query'] ?? spec.criteria) as Record<string, unknown>),
    }));
    return withVirtualEventTypes(opened(), async () => definitions);
  };
  const idsOf = async (searchable: SearchableIndex, scope: TenantScope, body: Record<string, unknown>) => {
    const response = await searchable.search(contextOf(scope), parseSearchRequest({ size: 1000, sort: [{ _id: 'asc' }], ...body }, 'events'));
    return response.hits.hits.map((hit) => hit._id).sort();
  };
  const sortedIds = (events: readonly Call[]) => events.map((call) => call.id).sort();

  it('term, terms, exists and must_not select the events of the types named, past events included', async () => {
    await fc.assert(
      fc.asyncProperty(calls, namedTypes, fc.nat(), async (events, types, pick) => {
        const scope = { org_id: 'org-virtual', app_id: `app-${randomUUID()}` };
        await load(scope, events);
        const searchable = typed(types);
        const chosen = types[pick % types.length]!;
        const of = (name: string) => types.filter((type) => type.name === name).map((type) => type.spec);
        const hasType = (call: Call, name: string) => of(name).some((spec) => spec.matches(call));

        expect(await idsOf(searchable, scope, { query: { term: { virtual_event_types: chosen.name } } })).toEqual(
          sortedIds(events.filter((call) => hasType(call, chosen.name))),
        );
        const pair = [chosen.name, 'no-such-type', types[0]!.name];
        expect(await idsOf(searchable, scope, { query: { terms: { virtual_event_types: pair } } })).toEqual(
          sortedIds(events.filter((call) => pair.some((name) => hasType(call, name)))),
        );
        expect(await idsOf(searchable, scope, { query: { exists: { field: 'virtual_event_types' } } })).toEqual(
          sortedIds(events.filter((call) => types.some((type) => type.spec.matches(call)))),
        );
        expect(await idsOf(searchable, scope, { query: { bool: { must_not: [{ term: { virtual_event_types: chosen.name } }] } } })).toEqual(
          sortedIds(events.filter((call) => !hasType(call, chosen.name))),
        );
        expect(await searchable.countMatching(contextOf(scope), parseQuery({ term: { virtual_event_types: chosen.name } }))).toBe(
          events.filter((call) => hasType(call, chosen.name)).length,
        );
      }),
      { numRuns: 15 },
    );
  });

  it('query_string names types as the DSL does: each form answers what its DSL equivalent answers', async () => {
    await fc.assert(
      fc.asyncProperty(calls, namedTypes, fc.nat(), fc.constantFrom(...VERBS), async (events, types, pick, verb) => {
        const scope = { org_id: 'org-virtual', app_id: `app-${randomUUID()}` };
        await load(scope, events);
        const searchable = typed(types);
        const chosen = types[pick % types.length]!.name;
        const pairs: [string, Record<string, unknown>][] = [
          [`virtual_event_types:"${chosen}"`, { term: { virtual_event_types: chosen } }],
          [`virtual_event_types:${chosen}`, { match: { virtual_event_types: chosen } }],
          [`virtual_event_types:${chosen.slice(0, 1)}*`, { wildcard: { virtual_event_types: `${chosen.slice(0, 1)}*` } }],
          ['_exists_:virtual_event_types', { exists: { field: 'virtual_event_types' } }],
          [`NOT virtual_event_types:"${chosen}"`, { bool: { must_not: [{ term: { virtual_event_types: chosen } }] } }],
          [
            `virtual_event_types:"${chosen}" AND request.verb:${verb}`,
            { bool: { filter: [{ term: { virtual_event_types: chosen } }, { term: { 'request.verb': verb } }] } },
          ],
        ];
        for (const [text, dsl] of pairs) {
          const expected = await idsOf(searchable, scope, { query: dsl });
          expect([text, await idsOf(searchable, scope, { query: { query_string: { query: text } } })]).toEqual([text, expected]);
          const counted = await searchable.countMatching(contextOf(scope), parseQuery({ query_string: { query: text } }));
          expect([text, counted]).toEqual([text, expected.length]);
        }
      }),
      { numRuns: 10 },
    );
  });

  it('query_string with a range on types, or types as its default field, is a 400 naming the member', async () => {
    const scope = { org_id: 'org-virtual', app_id: `app-${randomUUID()}` };
    await load(scope, [{ id: 'r', verb: 'GET', status: 200, weight: 1, at: BASE }]);
    const searchable = typed([{ name: 'reads', spec: { criteria: { term: { 'request.verb': 'GET' } }, matches: () => true } }]);
    await expect(idsOf(searchable, scope, { query: { query_string: { query: 'virtual_event_types:>=a' } } })).rejects.toMatchObject({
      details: [{ field: 'query.query_string.range.virtual_event_types' }],
    });
    await expect(idsOf(searchable, scope, { query: { query_string: { query: 'reads', default_field: 'virtual_event_types' } } })).rejects.toMatchObject({
      details: [{ field: 'query.query_string.default_field' }],
    });
  });

  it('a terms aggregation counts each event under every type it has, ordered, cut to size, with sub-aggregations', async () => {
    await fc.assert(
      fc.asyncProperty(calls, namedTypes, fc.integer({ min: 1, max: 6 }), async (events, types, size) => {
        const scope = { org_id: 'org-virtual', app_id: `app-${randomUUID()}` };
        await load(scope, events);
        const searchable = typed(types);
        const response = await searchable.search(
          contextOf(scope),
          parseSearchRequest(
            {
              size: 0,
              aggs: { by_type: { terms: { field: 'virtual_event_types', size, missing: '(none)' }, aggs: { weight: { sum: { field: 'weight' } } } } },
            },
            'events',
          ),
        );

        const expected = types
          .map((type) => type.name)
          .filter((name, i, names) => names.indexOf(name) === i)
          .map((name) => {
            const members = events.filter((call) => types.some((type) => type.name === name && type.spec.matches(call)));
            return { key: name, doc_count: members.length, weight: { value: members.reduce((sum, call) => sum + call.weight, 0) } };
          });
        const untyped = events.filter((call) => !types.some((type) => type.spec.matches(call)));
        if (untyped.length > 0)
          expected.push({ key: '(none)', doc_count: untyped.length, weight: { value: untyped.reduce((sum, call) => sum + call.weight, 0) } });
        const ordered = expected.filter((bucket) => bucket.doc_count > 0).sort((a, b) => b.doc_count - a.doc_count || (a.key < b.key ? -1 : 1));
        expect(response.aggregations?.['by_type']).toEqual({
          doc_count_error_upper_bound: 0,
          sum_other_doc_count: ordered.slice(size).reduce((sum, bucket) => sum + bucket.doc_count, 0),
          buckets: ordered.slice(0, size),
        });
      }),
      { numRuns: 15 },
    );
  });

  it("reads the app's types for every request, or once per reuse window when asked to", async () => {
    const scope = { org_id: 'org-virtual', app_id: `app-${randomUUID()}` };
    await load(scope, [{ id: 'r', verb: 'GET', status: 200, weight: 1, at: BASE }]);
    let reads = 0;
    const source = async () => {
      reads += 1;
      return [{ name: 'reads', query: parseQuery({ term: { 'request.verb': 'GET' } }) }];
    };
    const query = parseQuery({ term: { virtual_event_types: 'reads' } });
    const fresh = withVirtualEventTypes(opened(), source);
    expect(await fresh.countMatching(contextOf(scope), query)).toBe(1);
    expect(await fresh.countMatching(contextOf(scope), query)).toBe(1);
    expect(reads).toBe(2);
    const reusing = withVirtualEventTypes(opened(), source, { reuseTypesForMs: 60_000 });
    await reusing.countMatching(contextOf(scope), query);
    expect(await reusing.countMatching(contextOf(scope), query)).toBe(1);
    expect(reads).toBe(3);
  });

  it('a terms aggregation under a date histogram is reshaped in every bucket, and min_doc_count 0 shows empty types', async () => {
    const scope = { org_id: 'org-virtual', app_id: `app-${randomUUID()}` };
    const events: Call[] = [
      { id: 'a', verb: 'GET', status: 200, weight: 1, at: BASE },
      { id: 'b', verb: 'POST', status: 500, weight: 2, at: BASE + 3_600_000 },
    ];
    await load(scope, events);
    const searchable = typed([
      { name: 'reads', spec: { criteria: { term: { 'request.verb': 'GET' } }, matches: () => true } },
      { name: 'failures', spec: { criteria: { range: { 'response.status': { gte: 500 } } }, matches: () => true } },
    ]);
    const response = await searchable.search(
      contextOf(scope),
      parseSearchRequest(
        {
          size: 0,
          aggs: {
            hourly: {
              date_histogram: { field: 'time', fixed_interval: '1h' },
              aggs: { types: { terms: { field: 'virtual_event_types', min_doc_count: 0, order: { _key: 'asc' } } } },
            },
          },
        },
        'events',
      ),
    );
    const buckets = (response.aggregations!['hourly'] as { buckets: { doc_count: number; types: unknown }[] }).buckets;
    expect(buckets.map((bucket) => bucket.types)).toEqual([
      {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 'failures', doc_count: 0 },
          { key: 'reads', doc_count: 1 },
        ],
      },
      {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 'failures', doc_count: 1 },
          { key: 'reads', doc_count: 0 },
        ],
      },
    ]);
  });
});
