import { createHash } from 'node:crypto';
import { idempotencyKey } from '../../../functions/billing/providers/idempotency-key';

describe('idempotencyKey (one-shot hash)', () => {
  it('is the same key as before: truncated hex SHA-256 of the identity fields joined by \\u001f', () => {
    const identity = {
      orgId: 'org_1',
      appId: 'app_1',
      meterId: 'm/ü',
      subscriptionId: 'sub_1',
      windowStart: new Date('2026-03-01T00:00:00Z'),
      windowEnd: new Date('2026-03-01T01:00:00Z'),
      reportVersion: 3,
      destination: 'webhook:ch',
    };
    const material = ['org_1', 'app_1', 'm/ü', 'sub_1', '2026-03-01T00:00:00.000Z', '2026-03-01T01:00:00.000Z', '3', 'webhook:ch'].join('\u001f');
    expect(idempotencyKey(identity)).toBe(`uab_${createHash('sha256').update(material).digest('hex').slice(0, 44)}`);
  });
});
