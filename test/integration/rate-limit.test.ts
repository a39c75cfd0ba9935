import { startTestRuntime, type TestRuntime, type TestResponse } from './support/runtime';

/**
 * The Management API rate limit on the real table: limit 20 a minute, so a minute's allowance is
 * 20 + min(10, unused part of the previous minute). The clock is fixed (and moved by the test) so
 * every request of a burst falls in the same calendar minute.
 */
describe('Management API rate limit', () => {
  const LIMIT = 20;
  const BURST_CAP = 10;
  let rt: TestRuntime;
  // 30 s into a minute, so Retry-After is predictable.
  let clock = Math.floor(Date.now() / 60_000) * 60_000 + 30_000;

  beforeAll(async () => {
    rt = await startTestRuntime('ratelimit', { managementAuth: { rateLimitPerMinute: LIMIT, now: () => new Date(clock) } });
  });
  afterAll(() => rt?.dispose());

  const call = () => rt.management('GET', '/~/oauth/access_tokens?target=collector');
  const statuses = (answers: TestResponse[]) => answers.map((a) => a.status);

  it('lets no more than limit + burst of 100 concurrent requests through, and answers the rest 429 with headers', async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, call));
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    // A quiet previous minute: the whole burst credit.
    expect(ok).toHaveLength(LIMIT + BURST_CAP);
    expect(limited).toHaveLength(100 - LIMIT - BURST_CAP);
    expect(new Set(statuses(answers))).toEqual(new Set([200, 429]));

    // Each accepted request got its own slot: remaining counts down 29 … 0 without repeats.
    expect(ok.map((a) => Number(a.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    const reset = String((Math.floor(clock / 60_000) + 1) * 60);
    for (const answer of ok) expect(answer.headers.get('x-ratelimit-limit')).toBe('30');
    for (const answer of limited) {
      expect(answer.body.error).toMatchObject({ status: 429, code: 'too_many_requests' });
      expect(answer.headers.get('retry-after')).toBe('30');
      expect(answer.headers.get('x-ratelimit-limit')).toBe('30');
      expect(answer.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(answer.headers.get('x-ratelimit-reset')).toBe(reset);
    }
  });

  it('gives no burst credit after a minute that used it all, and the full credit after a quiet one', async () => {
    clock += 60_000; // the previous minute used 30 > 20: allowance 20
    const busy: number[] = [];
    for (let i = 0; i < 22; i++) busy.push((await call()).status);
    expect(busy.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(busy.slice(LIMIT)).toEqual([429, 429]);

    clock += 60_000; // previous minute used 20: no unused part, allowance 20
    const next = await call();
    expect(next.headers.get('x-ratelimit-limit')).toBe(String(LIMIT));

    clock += 120_000; // a quiet minute before this one: 20 + 10
    expect((await call()).headers.get('x-ratelimit-limit')).toBe(String(LIMIT + BURST_CAP));
  });

  it('carries only the unused part of a partly used minute', async () => {
    clock += 120_000;
    for (let i = 0; i < 15; i++) expect((await call()).status).toBe(200);
    clock += 60_000; // 30 allowed, 15 used: 20 + min(10, 20 − 15) = 25
    expect((await call()).headers.get('x-ratelimit-limit')).toBe('25');
  });

  it('counts search routes and management routes against the same per-org minute', async () => {
    clock += 120_000;
    const search = () => rt.management('POST', '/search/~/count/events', {}, {});
    for (let i = 0; i < LIMIT + BURST_CAP - 1; i++) expect((await call()).status).toBe(200);
    const last = await search();
    expect(last.status).toBe(200);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    const over = await search();
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('30');
    // Another org is not affected.
    await rt.apps.createOrgWithApp({ orgId: 'org_quiet', orgName: 'Quiet', appId: 'app_quiet', appName: 'Quiet' });
    const quiet = await rt.management('GET', '/~/oauth/access_tokens?target=collector', {
      authorization: `Bearer ${await rt.issueToken({ org_id: 'org_quiet', app_id: 'app_quiet' })}`,
    });
    expect(quiet.status).toBe(200);
  });
});
