import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { appRulesPartition } from '../../functions/resources/keys';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/** The keystore's one key per (type, month) holds under concurrent creates, on the real emulators. */
describe('keystore: one key per type and month', () => {
  let rt: TestRuntime;

  beforeAll(async () => {
    rt = await startTestRuntime('keystore-slots', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
  });
  afterAll(() => rt?.dispose());

  const material = (n: number) => Buffer.alloc(32, n).toString('base64');
  const api = (method: string, path: string, body?: unknown) => rt.management(method, path, {}, body);
  const monthsStored = async () => ((await api('GET', '/~/keystore?take=1000')).body as { month: string; type: string }[]).map((k) => `${k.type}|${k.month}`);

  it('lets exactly one of several simultaneous creates of a slot succeed; the others get the documented 409', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => api('POST', '/~/keystore', { month: '2027-01', encrypted_key: material(i + 1) })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body.error.code).toBe('conflict');
      expect(refused.body.error.details).toEqual([{ field: 'month', reason: expect.stringMatching(/^a data_key key for 2027-01 exists/) }]);
    }
    expect((await monthsStored()).filter((slot) => slot === 'data_key|2027-01')).toHaveLength(1);

    // Deleting the key frees its slot.
    const winner = answers.find((a) => a.status === 201)!;
    expect((await api('DELETE', `/~/keystore/${winner.body._id}`)).status).toBe(204);
    expect((await api('POST', '/~/keystore', { month: '2027-01', encrypted_key: material(20) })).status).toBe(201);
  });

  it('writes a list all or nothing when lists race for a slot', async () => {
    const [first, second] = await Promise.all([
      api('POST', '/~/keystore', [
        { month: '2027-02', encrypted_key: material(1) },
        { month: '2027-03', encrypted_key: material(2) },
      ]),
      api('POST', '/~/keystore', [
        { month: '2027-04', encrypted_key: material(3) },
        { month: '2027-03', encrypted_key: material(4) },
      ]),
    ]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    const loser = first.status === 409 ? first : second;
    expect(loser.body.error.details).toEqual([{ field: '[1].month', reason: expect.stringMatching(/key for 2027-03 exists/) }]);
    const stored = await monthsStored();
    expect(stored.filter((slot) => slot === 'data_key|2027-03')).toHaveLength(1);
    // The loser's other key was not kept.
    expect(stored).toContain(first.status === 201 ? 'data_key|2027-02' : 'data_key|2027-04');
    expect(stored).not.toContain(first.status === 201 ? 'data_key|2027-04' : 'data_key|2027-02');
  });

  it('removes the earlier part of a long list when a later transaction finds its slot taken', async () => {
    // A slot taken between the list's check and its write (as by a create that won a race).
    await rt.clients.documents.send(
      new PutCommand({
        TableName: rt.names.tables.resources,
        Item: {
          pk: appRulesPartition(rt.credentials.org_id, rt.credentials.app_id),
          sk: 'KEY_SLOT#rotation#2035-08',
          key_id: 'elsewhere',
          type: 'rotation',
          month: '2035-08',
        },
      }),
    );
    const months = Array.from({ length: 60 }, (_, i) => `${2030 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
    expect(months[55]).toBe('2034-08');
    months[55] = '2035-08';
    const answer = await api(
      'POST',
      '/~/keystore',
      months.map((month, i) => ({ month, type: 'rotation', encrypted_key: material(i + 1) })),
    );
    expect(answer.status).toBe(409);
    expect(answer.body.error.details).toEqual([{ field: '[55].month', reason: expect.stringMatching(/key for 2035-08 exists/) }]);
    expect((await monthsStored()).filter((slot) => slot.startsWith('rotation|'))).toEqual([]);
    // The freed slots can be taken.
    expect((await api('POST', '/~/keystore', { month: '2030-01', type: 'rotation', encrypted_key: material(1) })).status).toBe(201);
  });
});
