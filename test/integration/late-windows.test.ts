import { LATE_AFTER_MS, LateWindowStore } from '../../functions/billing/late-events/late-window-store';
import { apiCall, startTestRuntime, type TestRuntime } from './support/runtime';

const HOUR = 3_600_000;
const hourOf = (t: number) => new Date(Math.floor(t / HOUR) * HOUR).toISOString();

describe('late-event window marks (for billing corrections)', () => {
  let rt: TestRuntime;
  let store: LateWindowStore;
  beforeAll(async () => {
    rt = await startTestRuntime('late-windows');
    store = new LateWindowStore(rt.clients.documents, rt.names.tables.billing);
  });
  afterAll(() => rt?.dispose());

  it('marks the hours of late events once they are indexed, and not the hours of timely ones', async () => {
    const now = Date.now();
    const lateTimes = [now - 3 * HOUR, now - 3 * HOUR + 1000, now - 26 * HOUR];
    const batch = [...lateTimes.map((t) => apiCall({}, new Date(t))), apiCall({}, new Date(now - 1000))];
    expect((await rt.collect('/v1/events/batch', batch)).status).toBe(201);
    await rt.waitUntilConsumed();

    const { org_id, app_id } = rt.credentials;
    const marks = await store.marksBetween(org_id, app_id, new Date(now - 48 * HOUR), new Date(now + HOUR));
    expect(marks.map((m) => m.hourStart.toISOString()).sort()).toEqual([hourOf(now - 26 * HOUR), hourOf(now - 3 * HOUR)].sort());
    const threeHoursAgo = marks.find((m) => m.hourStart.toISOString() === hourOf(now - 3 * HOUR))!;
    expect(threeHoursAgo.events).toBeGreaterThanOrEqual(1);
    expect(threeHoursAgo.lastIndexedAt.getTime()).toBeGreaterThanOrEqual(now - 60_000);
  });

  it('moves a mark forward when later late events arrive, never back', async () => {
    const { org_id, app_id } = rt.credentials;
    const time = new Date(Date.now() - 10 * HOUR).toISOString();
    const later = new Date(Date.now() + 1000);
    await store.markLate([{ org_id, app_id, time }], later);
    await store.markLate([{ org_id, app_id, time }], new Date(later.getTime() - 5000));
    const [mark] = await store.marksBetween(org_id, app_id, new Date(Date.parse(time)), new Date(Date.parse(time) + 1));
    expect(mark!.lastIndexedAt.toISOString()).toBe(later.toISOString());
    expect(mark!.events).toBe(2);
  });

  it('ignores events within the late threshold and is confined to its app', async () => {
    const { org_id, app_id } = rt.credentials;
    const at = new Date();
    const recent = new Date(at.getTime() - LATE_AFTER_MS + 1000).toISOString();
    expect(await store.markLate([{ org_id, app_id, time: recent }], at)).toBe(0);
    await store.markLate([{ org_id, app_id: 'another-app', time: new Date(at.getTime() - 40 * HOUR).toISOString() }], at);
    const marks = await store.marksBetween(org_id, app_id, new Date(at.getTime() - 41 * HOUR), new Date(at.getTime() - 39 * HOUR));
    expect(marks).toEqual([]);
  });
});
