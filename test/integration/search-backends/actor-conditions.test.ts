import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { eventDocument } from '../../../functions/search/index-documents';
import type { ActorCondition, SearchContext, TenantScope } from '../../../functions/search/port';
import { compareUtf8 } from '../../../values/utf8-order';
import { conformanceBackends, indexForTests } from '../../conformance/backends';

/**
 * A cohort condition's actors (the port's actorsMeeting) on every backend, against the actors
 * picked by hand from the same events: over a window inside one month, where OpenSearch drops the
 * actors with too few events on the shard, and over one across two months, where it pages through
 * every actor; with pages small enough (the small-pages backend) that the first gives way to the second.
 */

const VERBS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
const NOW = new Date('2025-03-28T12:00:00Z');
const MARCH = { from: new Date('2025-03-01T00:00:00Z'), to: new Date('2025-04-01T00:00:00Z') };
const FEBRUARY_TO_MARCH = { from: new Date('2025-02-15T00:00:00Z'), to: new Date('2025-03-20T00:00:00Z') };

interface Call {
  readonly id: string;
  readonly user: string;
  readonly at: Date;
  readonly verb: (typeof VERBS)[number];
}

/** User k makes k mod 11 calls in March and k mod 4 in February, each with one of the first 1 + (k mod 4) verbs. */
function calls(users: number): Call[] {
  return Array.from({ length: users }, (_, k) => {
    const user = `user-${String(k).padStart(2, '0')}${k % 7 === 0 ? 'é' : ''}`;
    const march = Array.from({ length: k % 11 }, (_, n) => ({ month: 2, day: 1 + ((k + 3 * n) % 27), n }));
    const february = Array.from({ length: k % 4 }, (_, n) => ({ month: 1, day: 10 + n, n: 100 + n }));
    return [...march, ...february].map(({ month, day, n }) => ({
      id: `${user}-${n}`,
      user,
      at: new Date(Date.UTC(2025, month, day, 9, k % 60)),
      verb: VERBS[(k + n) % (1 + (k % 4))]!,
    }));
  }).flat();
}

function byHand(all: readonly Call[], condition: ActorCondition, range: { from: Date; to: Date }): string[] {
  const perActor = new Map<string, Call[]>();
  for (const call of all) if (call.at >= range.from && call.at < range.to) perActor.set(call.user, [...(perActor.get(call.user) ?? []), call]);
  const compare = {
    gte: (a: number, b: number) => a >= b,
    gt: (a: number, b: number) => a > b,
    lte: (a: number, b: number) => a <= b,
    lt: (a: number, b: number) => a < b,
    eq: (a: number, b: number) => a === b,
  };
  return [...perActor]
    .filter(([, made]) =>
      compare[condition.operator](condition.measure === 'distinct' ? new Set(made.map((call) => call.verb)).size : made.length, condition.value),
    )
    .map(([user]) => user)
    .sort(compareUtf8);
}

describe.each(conformanceBackends({ openSearchSmallPages: true }))('cohort conditions’ actors: $name', (backend) => {
  const opened = indexForTests(backend);
  const scope: TenantScope = { org_id: 'org-actors', app_id: `app-${randomUUID()}` };
  const made = calls(40);

  beforeAll(async () => {
    const outcome = await opened().index(
      made.map((call) =>
        eventDocument(scope, 'event', {
          id: call.id,
          time: call.at.toISOString(),
          received_at: call.at.toISOString(),
          data: {
            request: { time: call.at.toISOString(), uri: 'https://api.example.com/x', verb: call.verb },
            response: { time: call.at.toISOString(), status: 200 },
            user_id: call.user,
          },
        }),
      ),
    );
    expect(outcome.failures).toEqual([]);
    await opened().refresh();
  });

  it('lists the actors whose count or distinct verbs compare as the condition says, in id order, in one month or across two', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<ActorCondition['measure']>('count', 'distinct'),
        fc.constantFrom<ActorCondition['operator']>('gte', 'gt', 'eq', 'lte', 'lt'),
        fc.integer({ min: 0, max: 11 }),
        fc.constantFrom(MARCH, FEBRUARY_TO_MARCH),
        async (measure, operator, value, range) => {
          const condition: ActorCondition = {
            by: 'user_id',
            query: { type: 'match_all' },
            measure,
            ...(measure === 'distinct' ? { field: 'request.verb' } : {}),
            operator,
            value,
          };
          const context: SearchContext = { scope, kind: 'events', timeZone: 'UTC', now: NOW, range };
          const listed: string[] = [];
          for await (const page of opened().actorsMeeting(context, condition)) listed.push(...page);
          expect({ measure, operator, value, listed }).toEqual({ measure, operator, value, listed: byHand(made, condition, range) });
        },
      ),
      { numRuns: 40 },
    );
  });
});
