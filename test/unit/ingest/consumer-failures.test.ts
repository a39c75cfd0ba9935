import { createConsumer, type ConsumerDeps } from '../../../functions/ingest/consumer/consume';
import { isPermanentFailure, PermanentRecordError } from '../../../functions/ingest/consumer/permanent-failure';
import type { QuarantinedRecord } from '../../../functions/ingest/consumer/quarantine';
import { encodeRecord } from '../../../functions/ingest/stream/record-encoding';
import type { StoredProfile } from '../../../functions/profiles/profile-store';

const scope = { org_id: 'org_1', app_id: 'app_1' };
const at = '2026-11-25T00:00:00.000Z';

function userRecord(sequence: number, userId: string, metadata: Record<string, unknown>) {
  const record = {
    v: 1,
    record_id: `rec-${sequence}`,
    ...scope,
    kind: 'user',
    items: [{ id: userId, time: at, received_at: at, data: { user_id: userId, metadata } }],
  };
  return { sequenceNumber: String(sequence), partitionKey: `app_1:user:${userId}`, data: encodeRecord(JSON.stringify(record)) };
}

/** A consumer whose profile store fails as told by each update's metadata.fail. */
function consumerWith(failure: (metadata: Record<string, unknown>) => Error | undefined) {
  const quarantined: { reason: string; records: QuarantinedRecord[]; detail: unknown }[] = [];
  const merged: string[] = [];
  const deps = {
    dedup: { claim: async (claims: unknown[]) => claims.map(() => 'claimed') },
    profiles: {
      merge: async (_org: string, _app: string, _kind: string, id: string, patch: Record<string, unknown>): Promise<StoredProfile> => {
        const error = failure(patch['metadata'] as Record<string, unknown>);
        if (error) throw error;
        merged.push(`${id}:${JSON.stringify(patch['metadata'])}`);
        return { document: patch, version: merged.length, created_at: at, updated_at: at };
      },
    },
    index: { index: async () => ({ written: 0, failures: [] }) },
    archive: { write: async () => {} },
    quarantine: { put: async (reason: string, records: QuarantinedRecord[], detail: unknown) => void quarantined.push({ reason, records, detail }) },
    lateWindows: { markLate: async () => 0 },
    metrics: () => {},
  } as unknown as ConsumerDeps;
  return { consume: createConsumer(deps), quarantined, merged };
}

describe('the consumer and records that can never be stored', () => {
  it('quarantines an update the profile store refuses for good at once, and the later updates of that profile go on', async () => {
    const tooLarge = Object.assign(new Error('Item size has exceeded the maximum allowed size'), { name: 'ValidationException' });
    const { consume, quarantined, merged } = consumerWith((metadata) => (metadata['fail'] ? tooLarge : undefined));
    const result = await consume([
      userRecord(1, 'u', { a: 1 }),
      userRecord(2, 'u', { fail: true }),
      userRecord(3, 'u', { b: 2 }),
      userRecord(4, 'v', { c: 3 }),
    ]);
    expect(result.failedSequenceNumbers).toEqual([]);
    // Profiles merge in parallel; one profile's updates in stream order.
    expect(merged.filter((m) => m.startsWith('u:'))).toEqual(['u:{"a":1}', 'u:{"b":2}']);
    expect(merged.filter((m) => m.startsWith('v:'))).toEqual(['v:{"c":3}']);
    expect(quarantined).toHaveLength(1);
    expect(quarantined[0]!.reason).toBe('refused by the profile store');
    expect(quarantined[0]!.detail).toEqual(['ValidationException: Item size has exceeded the maximum allowed size']);
    // Kept as a stream record of its own, with the original record id, ready to replay.
    const kept = JSON.parse(Buffer.from(quarantined[0]!.records[0]!.data, 'base64').toString('utf8'));
    expect(kept).toMatchObject({ v: 1, record_id: 'rec-2', ...scope, kind: 'user', items: [{ id: 'u', data: { metadata: { fail: true } } }] });
  });

  it('retries a transient failure: the record and the later updates of that profile fail, in order, other profiles go on', async () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ProvisionedThroughputExceededException' });
    const { consume, quarantined, merged } = consumerWith((metadata) => (metadata['fail'] ? throttled : undefined));
    const result = await consume([userRecord(1, 'u', { fail: true }), userRecord(2, 'u', { b: 2 }), userRecord(3, 'v', { c: 3 })]);
    expect(result.failedSequenceNumbers).toEqual(['1', '2']);
    expect(merged).toEqual(['v:{"c":3}']);
    expect(quarantined).toEqual([]);
  });

  it.each([
    [
      Object.assign(new Error('One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit'), {
        name: 'ValidationException',
      }),
      true,
    ],
    [new Error('Unsupported type passed: [object Object]. Pass options.convertClassInstanceToMap=true to marshall typeof object as map attribute.'), true],
    [new Error('Number 9007199254740993 is greater than Number.MAX_SAFE_INTEGER. Use NumberValue from @aws-sdk/lib-dynamodb.'), true],
    [new PermanentRecordError('not storable'), true],
    [Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }), false],
    [Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' }), false],
    [Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), false],
    ['a string', false],
  ])('classifies %p as permanent: %p', (error, permanent) => {
    expect(isPermanentFailure(error)).toBe(permanent);
  });
});
