import { randomUUID } from 'node:crypto';
import { AppSettings, type App } from '../../../schemas/app';
import { DataRetention, retentionCutoff } from '../../../functions/retention';
import type { PlanSubscription } from '../../../functions/cohorts/subscription-periods';
import { eventDocument } from '../../../functions/search/index-documents';
import type { SearchableIndex, TenantScope } from '../../../functions/search/port';
import { conformanceBackends, indexForTests } from '../../conformance/backends';

/**
 * Per-app data retention on every search backend: the app's events past its cut go, the rest stay
 * (its other-day events, another app's, those inside a current billing period), and an app that keeps
 * its events leaves the registry.
 */
const DAY = 86_400_000;
const NOW = new Date(Date.UTC(2026, 5, 30, 12));

describe.each(conformanceBackends())('data retention: $name', (backend) => {
  const opened = indexForTests(backend);

  const eventsAt = async (scope: TenantScope, daysAgo: readonly number[]) => {
    await opened().index(
      daysAgo.map((ago, i) => {
        const time = new Date(NOW.getTime() - ago * DAY).toISOString();
        return eventDocument(scope, 'event', {
          id: `e-${ago}-${i}`,
          time,
          received_at: time,
          data: { request: { time, uri: 'https://api.example.com/x', verb: 'GET' }, response: { time, status: 200 } },
        });
      }),
    );
    await opened().refresh();
  };
  /** The app's events left once nothing before `cut` is (an OpenSearch deletion runs as a task: it is waited for). */
  const kept = async (index: SearchableIndex, scope: TenantScope, cut?: number) => {
    for (let waited = 0; cut !== undefined && waited < 100; waited += 1) {
      await index.refresh();
      const left = await index.countMatching(
        { scope, kind: 'events', range: { to: new Date(NOW.getTime() - cut * DAY) }, timeZone: 'UTC', now: NOW },
        { type: 'match_all' },
      );
      if (left === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return index.countMatching({ scope, kind: 'events', timeZone: 'UTC', now: NOW }, { type: 'match_all' });
  };
  const appWith = (scope: TenantScope, days: number | null): App => ({
    org_id: scope.org_id,
    app_id: scope.app_id,
    name: 'retained',
    collector_application_id: 'c'.repeat(50),
    time_zone: 'UTC',
    week_starts_on: 0,
    settings: { ...AppSettings.parse({}), data_retention_days: days },
    created_at: NOW.toISOString(),
    modified_at: NOW.toISOString(),
  });

  it("deletes an app's events past its days, keeps the rest and other apps', within a current billing period too", async () => {
    const org = `org-${randomUUID().slice(0, 8)}`;
    const retained = { org_id: org, app_id: 'retained' };
    const billed = { org_id: org, app_id: 'billed' };
    const other = { org_id: org, app_id: 'other' };
    for (const scope of [retained, billed, other]) await eventsAt(scope, [100, 60, 46, 44, 10, 0]);
    // "billed" has an annual subscription whose current period began 50 days ago: its cut stops there.
    const subscription: PlanSubscription = {
      subscriptionId: 's1',
      companyId: 'c1',
      status: 'active',
      periodStart: new Date(NOW.getTime() - 50 * DAY),
      periodEnd: new Date(NOW.getTime() + 315 * DAY),
      items: [],
    };
    const forgotten: string[] = [];
    const retention = new DataRetention({
      apps: { getApp: async (_org, app) => (app === 'other' ? appWith(other, null) : appWith(app === 'retained' ? retained : billed, 45)) },
      registry: { list: async () => [retained, billed, other], forgetListed: async (listed) => void forgotten.push(listed.app_id) },
      index: opened(),
      subscriptions: { subscriptions: async (scope) => (scope.app_id === 'billed' ? [subscription] : []) },
      now: () => NOW,
    });
    const pass = await retention.applyAll();
    expect(pass.failures).toEqual([]);
    expect(pass.outcomes.map((outcome) => [outcome.app_id, outcome.cutoff]).sort()).toEqual([
      ['billed', new Date(NOW.getTime() - 50 * DAY).toISOString()],
      ['retained', new Date(NOW.getTime() - 45 * DAY).toISOString()],
    ]);
    expect(forgotten).toEqual(['other']);
    expect(await kept(opened(), retained, 45)).toBe(3);
    expect(await kept(opened(), billed, 50)).toBe(4);
    expect(await kept(opened(), other)).toBe(6);
    expect(pass.compactionError).toBeUndefined();
    // Within the hour the pass leaves the apps alone.
    expect((await retention.applyAll()).outcomes).toEqual([]);
  });

  it('compacts the months no normal write reaches any more, keeping every event, and leaves the current ones', async () => {
    const scope = { org_id: `org-${randomUUID().slice(0, 8)}`, app_id: 'compacted' };
    // March 2026 is settled on June 30 (35 days after its end); June is not. Three writes of March, three segments.
    for (const days of [[110], [105], [100], [1]]) await eventsAt(scope, days);
    const compacted = await opened().compactSettled(NOW);
    if (backend.name.startsWith('OpenSearch')) {
      expect(compacted.filter((index) => index.endsWith('events-2026.06'))).toEqual([]);
      expect(compacted.filter((index) => index.endsWith('events-2026.03'))).toHaveLength(1);
      // The merge is the cluster's task: once it is done, nothing is left to compact.
      let left = compacted;
      for (let waited = 0; left.some((index) => index.endsWith('events-2026.03')) && waited < 100; waited += 1) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        left = await opened().compactSettled(NOW);
      }
      expect(left.filter((index) => index.endsWith('events-2026.03'))).toEqual([]);
    } else {
      expect(compacted).toEqual([]);
    }
    await opened().refresh();
    expect(await kept(opened(), scope)).toBe(4);
  });
});

describe('the retention cut', () => {
  it('is the days before now, pulled back to the earliest current billing period', () => {
    expect(retentionCutoff(NOW, 40, []).toISOString()).toBe(new Date(NOW.getTime() - 40 * DAY).toISOString());
    expect(retentionCutoff(NOW, 40, [new Date(NOW.getTime() - 10 * DAY), new Date(NOW.getTime() - 70 * DAY)]).toISOString()).toBe(
      new Date(NOW.getTime() - 70 * DAY).toISOString(),
    );
  });
});
