import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { forEachCohortMember } from '../../../functions/cohorts/cohort-members';
import { eventDocument, profileDocument } from '../../../functions/search/index-documents';
import type { TenantScope } from '../../../functions/search/port';
import { conformanceBackends, indexForTests } from '../../conformance/backends';
import { cohort, criteriaOf, expectedMembers, NOW, world, type World } from '../../conformance/cohort-reference';

/**
 * Behavioural cohorts on every search backend, against membership computed by hand in plain code
 * from the same random profiles, events and subscriptions (never from a backend's answer).
 */

describe.each(conformanceBackends({ openSearchSmallPages: true }))('behavioural cohorts: $name', (backend) => {
  const opened = indexForTests(backend);

  const load = async (data: World): Promise<TenantScope> => {
    const scope = { org_id: 'org-cohorts', app_id: `app-${randomUUID()}` };
    const time = new Date(NOW).toISOString();
    await opened().index([
      ...data.calls.map((call) => {
        const iso = new Date(call.at).toISOString();
        return eventDocument(scope, 'event', {
          id: call.id,
          time: iso,
          received_at: iso,
          data: {
            request: { time: iso, uri: 'https://api.example.com/x', verb: call.verb },
            response: { time: iso, status: call.status },
            ...(call.user ? { user_id: call.user } : {}),
            ...(call.company ? { company_id: call.company } : {}),
            ...(call.weight === undefined ? {} : { weight: call.weight }),
          },
        });
      }),
      ...[...data.users].map(([id, user]) =>
        profileDocument(scope, 'users', id, { user_id: id, ...(user.company ? { company_id: user.company } : {}), metadata: { plan: user.plan } }, 1, time),
      ),
      ...[...data.companies].map(([id, company]) => profileDocument(scope, 'companies', id, { company_id: id, metadata: { plan: company.plan } }, 1, time)),
    ]);
    await opened().refresh();
    return scope;
  };

  it('members are the profiles whose behaviour meets the conditions, as computed by hand', async () => {
    await fc.assert(
      fc.asyncProperty(world, fc.array(cohort, { minLength: 1, maxLength: 4 }), async (data, specs) => {
        const scope = await load(data);
        for (const spec of specs) {
          const members: string[] = [];
          const plans = new Map<string, unknown>();
          await forEachCohortMember(
            {
              index: opened(),
              scope,
              timeZone: 'UTC',
              now: new Date(NOW),
              subscriptions: { subscriptions: async () => data.subscriptions },
            },
            { cohort_type: spec.type, criteria: JSON.stringify(criteriaOf(spec)), time_zone: spec.timeZone, week_starts_on: spec.weekStartsOn },
            ['metadata.plan'],
            (id, source) => {
              members.push(id);
              plans.set(id, (source['metadata'] as { plan?: unknown } | undefined)?.plan);
            },
          );
          expect({ criteria: criteriaOf(spec), members: members.sort() }).toEqual({ criteria: criteriaOf(spec), members: expectedMembers(data, spec) });
          // Each member comes with the fields asked for, from its own profile.
          const profiles = spec.type === 'user' ? data.users : data.companies;
          for (const id of members) expect(plans.get(id)).toBe(profiles.get(id)?.plan);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('profiles are judged in batches: members across several pages all count once', async () => {
    const scope = { org_id: 'org-cohorts', app_id: `app-${randomUUID()}` };
    const time = new Date(NOW).toISOString();
    const ids = Array.from({ length: 45 }, (_, k) => `u${String(k).padStart(3, '0')}`);
    await opened().index([
      ...ids.map((id) => profileDocument(scope, 'users', id, { user_id: id }, 1, time)),
      // Every third user called in the last hour; every other one at least twice.
      ...ids.flatMap((id, k) =>
        k % 3 === 0
          ? Array.from({ length: k % 2 === 0 ? 2 : 1 }, (_, n) => {
              const iso = new Date(NOW - (n + 1) * 60_000).toISOString();
              return eventDocument(scope, 'event', {
                id: `${id}-${n}`,
                time: iso,
                received_at: iso,
                data: { request: { time: iso, uri: 'https://x/y', verb: 'GET' }, user_id: id },
              });
            })
          : [],
      ),
    ]);
    await opened().refresh();
    const members: string[] = [];
    const criteria = { events: { conditions: [{ operator: 'gte', value: 2, window: { last: 1, unit: 'hours' } }] } };
    await forEachCohortMember(
      { index: opened(), scope, timeZone: 'UTC', now: new Date(NOW), pageSize: 7 },
      { cohort_type: 'user', criteria: JSON.stringify(criteria) },
      [],
      (id) => members.push(id),
    );
    expect(members).toEqual(ids.filter((_, k) => k % 6 === 0));

    // Past the cap the listing is cut: the first members in id order, and the engine asked for one more only.
    const capped: string[] = [];
    const listed = await forEachCohortMember(
      { index: opened(), scope, timeZone: 'UTC', now: new Date(NOW), maxMembersPerRule: 3 },
      { cohort_type: 'user', criteria: JSON.stringify(criteria) },
      [],
      (id) => capped.push(id),
    );
    expect({ listed, capped }).toEqual({ listed: 'cut', capped: members.slice(0, 3) });
  });
});
