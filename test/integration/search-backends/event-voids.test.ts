import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { parseSearchRequest } from '../../../functions/search/dsl';
import type { QueryNode } from '../../../schemas/search-tree';
import type { SearchableIndex, SearchContext, TenantScope, VoidedEvents } from '../../../functions/search/port';
import { conformanceBackends } from '../../conformance/backends';
import { apiCall } from '../../conformance/fixtures';
import { toIndexDocument } from '../../conformance/runner';

/**
 * Voided events on both backends: after any sequence of voids, every read (hits, counts, sums by
 * company, a funnel, a cohort condition) answers exactly what the same read answers over an index
 * holding only the events never voided; `voided: only` lists exactly the voided ones, with their
 * mark; a void never reaches another tenant or an event outside its range.
 */

const NOW = new Date('2026-03-20T00:00:00.000Z');
const USERS = ['u1', 'u2', 'u3'];
const COMPANIES = ['c1', 'c2'];

interface Sent {
  readonly id: string;
  readonly day: number;
  readonly user: string;
  readonly company: string;
  readonly verb: 'GET' | 'POST';
  readonly weight: number;
}

type VoidStep =
  | { readonly by: 'ids'; readonly ids: readonly string[] }
  | { readonly by: 'query'; readonly query: QueryNode; readonly fromDay: number; readonly toDay: number; readonly replacedBy?: readonly Sent[] | undefined };

const sentEvent = (n: number) =>
  fc.record({
    id: fc.constant(`e${n}`),
    day: fc.integer({ min: 1, max: 9 }),
    user: fc.constantFrom(...USERS),
    company: fc.constantFrom(...COMPANIES),
    verb: fc.constantFrom('GET' as const, 'POST' as const),
    weight: fc.integer({ min: 1, max: 5 }),
  });

const eventsArbitrary = fc.integer({ min: 1, max: 14 }).chain((count) => fc.tuple(...Array.from({ length: count }, (_, n) => sentEvent(n))));

const voidStep: fc.Arbitrary<VoidStep> = fc.oneof(
  fc.record({
    by: fc.constant('ids' as const),
    ids: fc.uniqueArray(
      fc.integer({ min: 0, max: 15 }).map((n) => `e${n}`),
      { maxLength: 4 },
    ),
  }),
  fc.record({
    by: fc.constant('query' as const),
    query: fc.oneof(
      fc.constantFrom(...USERS).map((value): QueryNode => ({ type: 'term', field: 'user_id', value, case_insensitive: false })),
      fc.constantFrom(...COMPANIES).map((value): QueryNode => ({ type: 'term', field: 'company_id', value, case_insensitive: false })),
      fc.constant<QueryNode>({ type: 'term', field: 'request.verb', value: 'POST', case_insensitive: false }),
    ),
    fromDay: fc.integer({ min: 1, max: 9 }),
    toDay: fc.integer({ min: 1, max: 10 }),
    // A replacement: the range's matching events voided, and a corrected set sent in their place.
    replacedBy: fc.option(fc.array(sentEvent(0), { maxLength: 3 }), { nil: undefined }),
  }),
);

const dayTime = (day: number, second: number) => new Date(Date.UTC(2026, 2, day, 12, 0, second)).toISOString();
/** An event's second within its day, from its id alone: the same event has the same time in every app it is loaded into. */
const secondOf = (id: string) => [...id].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) % 3600, 7);
const dayStart = (day: number) => new Date(Date.UTC(2026, 2, day));

describe.each(conformanceBackends())('voided events: $name', (backend) => {
  let index: SearchableIndex;

  beforeAll(async () => {
    index = await backend.open();
  }, 60_000);

  afterAll(async () => {
    await index?.close();
    await backend.dispose();
  }, 60_000);

  const context = (scope: TenantScope, voided?: VoidedEvents): SearchContext => ({
    scope,
    kind: 'events',
    timeZone: 'UTC',
    now: NOW,
    range: { from: dayStart(1), to: dayStart(11) },
    ...(voided ? { voided } : {}),
  });

  async function load(scope: TenantScope, events: readonly Sent[]): Promise<void> {
    const documents = events.map((event) =>
      toIndexDocument(
        scope,
        'events',
        apiCall({
          id: event.id,
          time: dayTime(event.day, secondOf(event.id)),
          user: event.user,
          company: event.company,
          verb: event.verb,
          weight: event.weight,
        }),
      ),
    );
    const outcome = await index.index(documents);
    expect(outcome.failures).toEqual([]);
    await index.refresh();
  }

  /** What every read of the app answers, in a form to compare. */
  async function reads(scope: TenantScope, voided?: VoidedEvents) {
    const ctx = context(scope, voided);
    const hits = await index.search(ctx, parseSearchRequest({ size: 100, sort: [{ _id: 'asc' }], _source: false }, 'events'));
    const byCompany = await index.search(
      ctx,
      parseSearchRequest(
        { size: 0, aggs: { companies: { terms: { field: 'company_id', size: 10 }, aggs: { weight: { sum: { field: 'weight' } } } } } },
        'events',
      ),
    );
    const funnel = await index.funnel(ctx, {
      steps: [
        { name: 'get', query: { type: 'term', field: 'request.verb', value: 'GET', case_insensitive: false } },
        { name: 'post', query: { type: 'term', field: 'request.verb', value: 'POST', case_insensitive: false } },
      ],
      windowMs: 30 * 86_400_000,
      by: 'user_id',
    });
    const actors: string[] = [];
    for await (const page of index.actorsMeeting(ctx, { by: 'user_id', query: { type: 'match_all' }, measure: 'count', operator: 'gte', value: 2 }))
      actors.push(...page);
    return {
      ids: hits.hits.hits.map((hit) => hit._id),
      total: await index.countMatching(ctx, { type: 'match_all' }),
      companies: byCompany.aggregations,
      funnel: funnel.steps.map((step) => step.entered),
      actors,
    };
  }

  it('reads after any sends, voids and replacements answer as if only the final set had been sent; voided ones are listed on request', async () => {
    await fc.assert(
      fc.asyncProperty(eventsArbitrary, fc.array(voidStep, { maxLength: 3 }), async (events, steps) => {
        const tag = randomUUID().slice(0, 8);
        const voidedApp: TenantScope = { org_id: `org-${tag}`, app_id: `voided-${tag}` };
        const neighbour: TenantScope = { org_id: `org-${tag}`, app_id: `neighbour-${tag}` };
        const survivorsApp: TenantScope = { org_id: `org-${tag}`, app_id: `survivors-${tag}` };
        await load(voidedApp, events);
        await load(neighbour, events);
        const voided = new Set<string>();
        const sent: Sent[] = [...events];
        for (const [n, step] of steps.entries()) {
          const mark = { void_id: `void-${n}`, voided_at: new Date(NOW.getTime() + n * 1000).toISOString() };
          const matches = (event: Sent) =>
            step.by === 'ids'
              ? step.ids.includes(event.id)
              : event.day >= step.fromDay &&
                event.day < step.toDay &&
                ((step.query as { field: string; value: string }).field === 'user_id'
                  ? event.user === (step.query as { value: string }).value
                  : (step.query as { field: string }).field === 'company_id'
                    ? event.company === (step.query as { value: string }).value
                    : event.verb === 'POST');
          const expected = sent.filter((event) => matches(event) && !voided.has(event.id));
          const stepContext =
            step.by === 'ids' ? context(voidedApp) : { ...context(voidedApp), range: { from: dayStart(step.fromDay), to: dayStart(step.toDay) } };
          const query: QueryNode = step.by === 'ids' ? { type: 'ids', values: [...step.ids] } : step.query;
          expect(await index.voidEvents(stepContext, query, mark)).toBe(expected.length);
          for (const event of expected) voided.add(event.id);
          if (step.by === 'query' && step.replacedBy && step.fromDay < step.toDay) {
            // Corrected events inside the replaced range, with ids of their own.
            const corrected = step.replacedBy.map((event, k) => ({ ...event, id: `r${n}-${k}`, day: step.fromDay + (k % (step.toDay - step.fromDay)) }));
            await load(voidedApp, corrected);
            sent.push(...corrected);
          }
        }
        await load(
          survivorsApp,
          sent.filter((event) => !voided.has(event.id)),
        );
        expect(await reads(voidedApp)).toEqual(await reads(survivorsApp));
        // The neighbour app sent the same events and voided none.
        expect((await reads(neighbour)).total).toBe(events.length);
        const listed = await index.search(context(voidedApp, 'only'), parseSearchRequest({ size: 100, sort: [{ _id: 'asc' }] }, 'events'));
        expect(listed.hits.hits.map((hit) => hit._id).sort()).toEqual([...voided].sort());
        for (const hit of listed.hits.hits) expect(hit._source).toMatchObject({ void_id: expect.stringMatching(/^void-/), voided_at: expect.any(String) });
        expect(await index.countMatching(context(voidedApp, 'include'), { type: 'match_all' })).toBe(sent.length);
      }),
      { numRuns: backend.name.startsWith('OpenSearch') ? 6 : 30 },
    );
  }, 120_000);

  it('deletes voided events with the rest when a deletion asks for them', async () => {
    const scope: TenantScope = { org_id: 'org-delete', app_id: `app-${randomUUID().slice(0, 8)}` };
    await load(scope, [
      { id: 'd1', day: 2, user: 'u1', company: 'c1', verb: 'GET', weight: 1 },
      { id: 'd2', day: 3, user: 'u1', company: 'c1', verb: 'GET', weight: 1 },
    ]);
    expect(await index.voidEvents(context(scope), { type: 'ids', values: ['d1'] }, { void_id: 'v', voided_at: NOW.toISOString() })).toBe(1);
    const deletion = await index.deleteMatching(context(scope), { type: 'term', field: 'user_id', value: 'u1', case_insensitive: false });
    for (let progress = deletion; !progress.completed; ) progress = (await index.deletionProgress(progress.task!)) ?? { completed: true, deleted: 0 };
    await index.refresh();
    expect(await index.countMatching(context(scope, 'include'), { type: 'match_all' })).toBe(0);
  }, 60_000);
});
