import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { QuerySlots } from '../../../functions/rate-limit/query-slots';
import type { CustomerBound, SearchableIndex, TenantScope } from '../../../functions/search/port';
import { runStoredChart, type RequiredTerm } from '../../../functions/shared-views/stored-chart';
import { conformanceBackends } from '../../conformance/backends';
import { apiCall } from '../../conformance/fixtures';
import { toIndexDocument } from '../../conformance/runner';

/**
 * A customer-bound read (a customer token's template data) sees its customer's events only,
 * whatever the template's query, its dynamic fields and the values bound to them say. The oracle:
 * the stored chart over the whole app, bound to company X (and maybe one of its subscriptions),
 * answers exactly as the same chart unbound over an app holding only X's (or that subscription's)
 * events; and no answer carries a mark of another company.
 */

const tag = randomUUID().slice(0, 8);
const ORG = `org-cb-${tag}`;
const FULL: TenantScope = { org_id: ORG, app_id: `app-full-${tag}` };
const COMPANIES = ['a', 'b', 'c'] as const;
const SUBSCRIPTIONS: Record<string, string[]> = { a: ['sub-a-1', 'sub-a-2'], b: ['sub-b-1'], c: ['sub-c-1', 'sub-c-2'] };
const onlyScope = (key: string): TenantScope => ({ org_id: ORG, app_id: `app-only-${key}-${tag}` });

interface Spec {
  readonly id: string;
  readonly company?: string;
  readonly subscription?: string;
  readonly user: string;
  readonly verb: string;
  readonly day: number;
  readonly hour: number;
}

/** 90 events over five days: each company's users, some naming a subscription, and some without any company. */
const SPECS: Spec[] = Array.from({ length: 90 }, (_, n) => {
  const letter = n % 10 === 9 ? undefined : COMPANIES[n % 3]!;
  const subs = letter === undefined ? [] : SUBSCRIPTIONS[letter]!;
  return {
    id: `e${n}`,
    ...(letter === undefined ? {} : { company: `company-${letter}` }),
    ...(letter !== undefined && n % 4 !== 0 ? { subscription: subs[n % subs.length] } : {}),
    user: letter === undefined ? `anon-${n % 2}` : `user-${letter}-${n % 2}`,
    verb: n % 3 === 1 ? 'POST' : 'GET',
    day: 10 + (n % 5),
    hour: n % 24,
  };
});

const documentOf = (scope: TenantScope, spec: Spec) => {
  const time = `2026-03-${spec.day}T${String(spec.hour).padStart(2, '0')}:00:00.000Z`;
  const call = apiCall({
    id: spec.id,
    time,
    verb: spec.verb,
    user: spec.user,
    ...(spec.company === undefined ? {} : { company: spec.company }),
    metadata: { co: spec.company ?? 'none', secret: `secret-of-${spec.company ?? 'none'}` },
  });
  return toIndexDocument(scope, 'events', { ...call, data: { ...call.data, ...(spec.subscription ? { subscription_id: spec.subscription } : {}) } });
};

/** Every value another company's events carry: a bound value or a query may name them, an answer never. */
const marksOf = (letter: string) => [`company-${letter}`, `secret-of-${letter}`, `user-${letter}-0`, `user-${letter}-1`, ...SUBSCRIPTIONS[letter]!];

// Hostile values: any company's users, subscriptions, metadata and ids, and values nobody has.
const anyValue = fc.constantFrom(...COMPANIES.flatMap((letter) => [...marksOf(letter), letter]), 'anon-0', 'none', 'nobody');
const anyQuery: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constant({ match_all: {} }),
  fc.constant({ term: { 'request.verb': 'POST' } }),
  anyValue.map((value) => ({ term: { user_id: value } })),
  anyValue.map((value) => ({ term: { company_id: value } })),
  anyValue.map((value) => ({ bool: { should: [{ match_all: {} }, { term: { company_id: value } }] } })),
  anyValue.map((value) => ({ bool: { must_not: [{ term: { company_id: value } }] } })),
  fc.constant({ bool: { must_not: [{ exists: { field: 'company_id' } }] } }),
  fc.constant({ query_string: { query: 'company_id:* OR NOT company_id:*' } }),
);
const zeroTerms = (field: string) => ({ terms: { field, size: 50, min_doc_count: 0 } });
const anyChart: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  anyQuery.map((query) => ({
    es_query: {
      size: 30,
      query,
      sort: [{ time: 'desc' }, { _id: 'asc' }],
      track_total_hits: true,
      aggs: {
        users: zeroTerms('user_id'),
        companies: zeroTerms('company_id'),
        subscriptions: zeroTerms('subscription_id'),
        marks: zeroTerms('metadata.co.raw'),
        per_day: { date_histogram: { field: 'time', calendar_interval: 'day', min_doc_count: 0 } },
        everyone: { filter: { match_all: {} }, aggs: { latest: { top_hits: { size: 5, sort: [{ time: 'desc' }, { _id: 'asc' }] } } } },
      },
    },
  })),
  fc.tuple(anyQuery, anyQuery, fc.constantFrom('user_id', 'company_id')).map(([first, then, by]) => ({
    funnel_query: { steps: [{ query: first }, { query: then }], by, conversion_window: '3d' },
  })),
  fc.tuple(anyQuery, anyQuery).map(([first, back]) => ({
    view_elements: { retention_query: { first_event: first, return_event: back, interval: 'day', periods: 4 } },
  })),
);
const anyRequired: fc.Arbitrary<RequiredTerm[]> = fc.uniqueArray(
  fc.record({ field: fc.constantFrom('user_id', 'company_id', 'subscription_id', 'metadata.co', 'metadata.co.raw'), value: anyValue }),
  { maxLength: 2, selector: (term) => term.field },
);
const anyRange = fc.constantFrom(
  { from: '2026-03-09T00:00:00.000Z', to: '2026-03-16T00:00:00.000Z' },
  { from: '2026-03-11T00:00:00.000Z', to: '2026-03-13T12:00:00.000Z' },
  { from: '2026-03-14T00:00:00.000Z', to: '2026-03-15T00:00:00.000Z' },
);
const anyCustomer: fc.Arbitrary<CustomerBound> = fc.constantFrom(...COMPANIES).chain((letter) =>
  fc.option(fc.constantFrom(...SUBSCRIPTIONS[letter]!), { nil: undefined }).map((sub) => ({
    company_id: `company-${letter}`,
    ...(sub === undefined ? {} : { subscription_id: sub }),
  })),
);

/** Queries here never wait for a slot: the budget's bound is not what this suite tests. */
const freeSlots = { acquire: async () => ({ release: async () => undefined }) } satisfies Pick<QuerySlots, 'acquire'>;

describe.each(conformanceBackends())('customer-bound reads: $name', (backend) => {
  let index: SearchableIndex;

  beforeAll(async () => {
    index = await backend.open();
    const onlyDocs = COMPANIES.flatMap((letter) => {
      const own = SPECS.filter((spec) => spec.company === `company-${letter}`);
      return [
        ...own.map((spec) => documentOf(onlyScope(letter), spec)),
        ...SUBSCRIPTIONS[letter]!.flatMap((sub) => own.filter((spec) => spec.subscription === sub).map((spec) => documentOf(onlyScope(sub), spec))),
      ];
    });
    const outcome = await index.index([...SPECS.map((spec) => documentOf(FULL, spec)), ...onlyDocs]);
    expect(outcome.failures).toEqual([]);
    await index.refresh();
  }, 60_000);

  afterAll(async () => {
    await index?.close();
    await backend.dispose();
  }, 60_000);

  const deps = () => ({ index, ready: async () => undefined, querySlots: freeSlots, queryTimeMs: 20_000 });
  const run = (scope: TenantScope, chart: Record<string, unknown>, range: { from: string; to: string }, required: RequiredTerm[], customer?: CustomerBound) =>
    runStoredChart(deps(), {
      scope,
      workspace: { _id: 'w', chart },
      range,
      timeZone: 'UTC',
      now: new Date('2026-03-16T00:00:00.000Z'),
      required,
      ...(customer ? { customer } : {}),
    });
  /** The answer as text, without what differs between two runs of one query (timings, the app's id). */
  const comparable = (answer: unknown, appId: string) => JSON.stringify(answer, (key, value) => (key === 'took' ? 0 : value)).replaceAll(appId, FULL.app_id);

  it('answers a bound customer exactly what its own events give, and nothing of another company (property)', async () => {
    await fc.assert(
      fc.asyncProperty(anyCustomer, anyChart, anyRequired, anyRange, async (customer, chart, required, range) => {
        const bound = await run(FULL, chart, range, required, customer);
        const letter = customer.company_id.replace('company-', '');
        const ownScope = onlyScope(customer.subscription_id ?? letter);
        const own = await run(ownScope, chart, range, required);
        expect(comparable(bound, FULL.app_id)).toEqual(comparable(own, ownScope.app_id));
        const text = JSON.stringify(bound.answer);
        for (const other of COMPANIES.filter((c) => c !== letter)) for (const mark of marksOf(other)) expect(text).not.toContain(JSON.stringify(mark));
        for (const mark of ['anon-0', 'anon-1', 'secret-of-none']) expect(text).not.toContain(JSON.stringify(mark));
      }),
      { numRuns: 60 },
    );
  }, 240_000);

  it('the three reproductions answer nothing of company b for a token of company a', async () => {
    const byVerb = { es_query: { size: 50, query: { match_all: {} }, aggs: { verbs: { terms: { field: 'request.verb' } } } } };
    const range = { from: '2026-03-09T00:00:00.000Z', to: '2026-03-16T00:00:00.000Z' };
    const tries: RequiredTerm[][] = [
      [{ field: 'user_id', value: 'user-b-0' }],
      [{ field: 'subscription_id', value: 'sub-b-1' }],
      [{ field: 'metadata.co.raw', value: 'company-b' }],
    ];
    for (const required of tries) {
      const answer = await run(FULL, byVerb, range, required, { company_id: 'company-a' });
      expect([required, (answer.answer as { hits: { total: number } }).hits.total]).toEqual([required, 0]);
      // Unbound (as the chart's owner sees it), the same values do find b's events: the binding is what kept them out.
      const unbound = await run(FULL, byVerb, range, required);
      expect([required, (unbound.answer as { hits: { total: number } }).hits.total > 0]).toEqual([required, true]);
    }
  });
});
