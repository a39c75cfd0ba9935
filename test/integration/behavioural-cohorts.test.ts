import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localParts } from '../../functions/search/dates/time-zone';
import { apiCall, searchBackends, startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Behavioural cohorts through the local runtime, on both search backends: members counted by what
 * they did (the management API's member lists and previews), entries and exits sent as cohort
 * notifications to a real webhook receiver, and a governance rule hitting the cohort's members.
 */

const MINUTE = 60_000;

/** A zone's calendar month (year included) at an instant. */
const monthIn = (timeZone: string, at: number) => {
  const { year, month } = localParts(at, timeZone);
  return year * 12 + month;
};
/**
 * The calendar windows below are asked in Paris, about events written 10 minutes before; run within
 * half an hour of a Paris month's start, those events fall in the month before. Then New York
 * (6 hours away from that boundary) is asked instead, so the test means the same at any hour.
 */
const calendarZone = (writtenAt: number) =>
  monthIn('Europe/Paris', writtenAt - 30 * MINUTE) === monthIn('Europe/Paris', writtenAt + 30 * MINUTE) ? 'Europe/Paris' : 'America/New_York';

describe.each(searchBackends())('behavioural cohorts on $name', ({ search }) => {
  let rt: TestRuntime;
  let receiver: Server;
  const hooks: { added: { id: string }[]; removed: { id: string }[] }[] = [];
  let clock = () => new Date();
  let heavyId = '';
  let writtenAt = Date.now();

  const writes = async (companyId: string, count: number, at: Date) => {
    const calls = Array.from({ length: count }, () => {
      const call = apiCall({ company_id: companyId, user_id: `${companyId}-dev` }, at);
      return { ...call, request: { ...(call.request as Record<string, unknown>), verb: 'POST' } };
    });
    expect((await rt.collect('/v1/events/batch', calls)).status).toBe(201);
    await rt.waitUntilConsumed();
  };
  const heavyWriters = {
    events: { conditions: [{ query: { term: { 'request.verb': 'POST' } }, operator: 'gte', value: 10, window: { last: 1, unit: 'hours' } }] },
  };
  const memberIds = (body: { members: { id: string }[] }) => body.members.map((member) => member.id);

  beforeAll(async () => {
    receiver = createServer((request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        hooks.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: (typeof hooks)[number] }).data);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    rt = await startTestRuntime('behavioural-cohorts', {
      search: search(),
      governanceRefreshMs: 0,
      cohortNotifications: { intervalMs: 0, now: () => clock() },
    });
    for (const company of ['acme', 'globex', 'initech']) expect((await rt.collect('/v1/companies', { company_id: company })).status).toBe(201);
    writtenAt = Date.now();
    await writes('acme', 10, new Date(writtenAt - 10 * MINUTE));
    await writes('globex', 3, new Date(writtenAt - 10 * MINUTE));
    const channel = await rt.management(
      'POST',
      '/~/billing/channels',
      {},
      { name: 'CRM', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks` },
    );
    expect(channel.status).toBe(201);
    const cohort = await rt.management(
      'POST',
      '/~/cohorts',
      {},
      {
        cohort_name: 'Heavy writers',
        cohort_type: 'company',
        criteria: heavyWriters,
        channels: [channel.body._id],
        notification_rule: { send_on_addition: true, send_on_removal: true },
      },
    );
    expect(cohort.status).toBe(201);
    heavyId = String(cohort.body._id);
  }, 180_000);

  afterAll(async () => {
    await rt?.dispose();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  it('lists who is in a behavioural cohort now, previews criteria, and asks about one member', async () => {
    const members = await rt.management('GET', `/~/cohorts/${heavyId}/members`);
    expect(members.status).toBe(200);
    expect(members.body).toEqual({ cohort_type: 'company', total: 1, cut: false, members: [{ id: 'acme' }] });
    expect((await rt.management('GET', `/~/cohorts/${heavyId}/members?member_id=globex`)).body).toMatchObject({ total: 0, members: [] });

    // Did not call at all in the last week; and (any of) wrote at least 3 times or never wrote.
    const quiet = await rt.management(
      'POST',
      '/~/cohorts/members/preview',
      {},
      {
        cohort_type: 'company',
        criteria: { events: { conditions: [{ performed: false, window: { last: 7, unit: 'days' } }] } },
      },
    );
    expect(quiet.status).toBe(200);
    expect(memberIds(quiet.body)).toEqual(['initech']);
    const either = await rt.management(
      'POST',
      '/~/cohorts/members/preview',
      {},
      {
        cohort_type: 'company',
        criteria: {
          events: {
            match: 'any',
            conditions: [
              { measure: 'sum_weight', operator: 'eq', value: 3, window: { calendar: 'month' } },
              { performed: false, query: { term: { 'request.verb': 'POST' } }, window: { calendar: 'year' } },
            ],
          },
        },
        time_zone: calendarZone(writtenAt),
        take: 1,
      },
    );
    expect(either.body).toMatchObject({ total: 2, members: [{ id: 'globex' }], next_after: 'globex' });

    const refused = await rt.management(
      'POST',
      '/~/cohorts/members/preview',
      {},
      {
        cohort_type: 'company',
        criteria: { events: { conditions: [{ measure: 'distinct', window: { last: 1, unit: 'days' } }] } },
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ field: 'criteria.events.conditions[0].field', reason: 'is required when measure is distinct' }]);
    const badCohort = await rt.management(
      'POST',
      '/~/cohorts',
      {},
      {
        cohort_name: 'Bad',
        cohort_type: 'user',
        criteria: { events: { conditions: [{ window: { last: 3, unit: 'weeks' } }] } },
      },
    );
    expect(badCohort.status).toBe(400);
    expect(badCohort.body.error.details[0].field).toBe('criteria.events.conditions[0].window.unit');
  });

  it('sends who entered by what they did, and who left as their calls aged out of the window', async () => {
    expect(await rt.cohortNotifications.runOnce()).toMatchObject({ added: 0, removed: 0, notifications: 0 });
    await writes('globex', 8, new Date(Date.now() - 5 * MINUTE));
    expect(await rt.cohortNotifications.runOnce()).toMatchObject({ added: 1, removed: 0, notifications: 1, delivered: 1 });
    expect(hooks.at(-1)).toMatchObject({ added: [{ id: 'globex' }], removed: [] });

    clock = () => new Date(Date.now() + 2 * 60 * MINUTE);
    expect(await rt.cohortNotifications.runOnce()).toMatchObject({ added: 0, removed: 2, notifications: 1, delivered: 1 });
    expect(
      hooks
        .at(-1)!
        .removed.map((member) => member.id)
        .sort(),
    ).toEqual(['acme', 'globex']);
  });

  it('a governance rule hits the members of a behavioural cohort', async () => {
    const rule = await rt.management(
      'POST',
      '/~/governance/rules',
      {},
      {
        name: 'Slow down heavy writers',
        type: 'company',
        state: 1,
        block: true,
        cohorts: [{ id: heavyId }],
        response: { status: 429, headers: {}, body: { error: 'slow down' } },
      },
    );
    expect(rule.status).toBe(201);
    await rt.governance.refreshApp(rt.credentials.org_id, rt.credentials.app_id);
    const members = await rt.management('GET', `/~/governance/rules/${rule.body._id}/members`);
    expect(members.body.members.map((member: { id: string }) => member.id)).toEqual(['acme', 'globex']);
  });
});
