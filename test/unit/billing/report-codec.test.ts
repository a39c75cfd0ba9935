import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import {
  applyOutcome,
  decodeCursor,
  encodeCursor,
  FORMAT_VERSION,
  outcomeOverlay,
  packShards,
  reportAfter,
  unpackOverlay,
  unpackShard,
  type OutcomeEntryOfReport,
} from '../../../functions/billing/reports/report-codec';
import { reportKeyOf, SHARD_GZIP_BYTES } from '../../../functions/billing/reports/report-keys';
import type { BillingReport } from '../../../schemas/billing/report';

/** The stored form of billing reports, without DynamoDB: what is packed must read back byte for byte. */

const windowStart = '2026-05-01T10:00:00.000Z';
const windowEnd = '2026-05-01T11:00:00.000Z';

function report(subscriptionId: string, usage: number, extra: Partial<BillingReport> = {}): BillingReport {
  return {
    _id: `r-${subscriptionId}`,
    org_id: 'org',
    app_id: 'app',
    type: 'usage',
    status: 'pending',
    success: false,
    usage_start_time: windowStart,
    usage_end_time: windowEnd,
    subscription_id: subscriptionId,
    company_id: `co-${subscriptionId}`,
    billing_meter_id: 'meter',
    provider: 'webhook',
    meter_metric: usage,
    meter_metric_exact: String(usage),
    meter_usage: usage,
    report_total_usage: usage,
    report_version: 1,
    last_success_time: null,
    idempotency_key: `uab_${subscriptionId}`,
    delivery_runs: 0,
    provider_requests: [],
    amount: usage / 100,
    amount_exact: String(usage / 100),
    currency: 'usd',
    subscription_period_start: null,
    subscription_period_end: null,
    usage: { aggregator: 'sum' },
    versions: [{ report_version: 1, meter_metric: String(usage), meter_usage: usage, delta: usage, amount_exact: String(usage / 100), created_at: windowEnd }],
    created_at: windowEnd,
    updated_at: windowEnd,
    ...extra,
  };
}

/** What a delivery sets: its request record (the report's own key), status, and the channel's copy of the records. */
function deliveredFields(subject: BillingReport, at: string, success: boolean): Record<string, unknown> {
  const record = {
    job_id: subject.idempotency_key,
    request_time: at,
    success,
    status_code: success ? 200 : 503,
    error_code: success ? null : 'http_503',
    error_message: success ? null : 'down',
  };
  const records = [...subject.provider_requests, record];
  return {
    status: success ? 'success' : 'retrying',
    success,
    delivery_runs: subject.delivery_runs + 1,
    provider_requests: records,
    channel_requests: [{ channel_id: 'ch', provider_requests: records }],
    updated_at: at,
    ...(success ? { last_success_time: at } : {}),
  };
}

const same = (actual: unknown, expected: unknown) => expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));

const reportsArbitrary = fc
  .uniqueArray(fc.tuple(fc.stringMatching(/^[a-z0-9-]{1,12}$/), fc.integer({ min: 0, max: 1_000_000 }), fc.boolean(), fc.boolean()), {
    minLength: 1,
    maxLength: 40,
    selector: ([id]) => id,
  })
  .map((rows) =>
    rows.map(([id, usage, delivered, success]) => {
      const base = report(id, usage);
      return delivered ? ({ ...base, ...deliveredFields(base, '2026-05-01T11:05:00.000Z', success) } as BillingReport) : base;
    }),
  );

describe('report shards', () => {
  it('read back exactly what was packed, key order, channel copies and own keys included', async () => {
    await fc.assert(
      fc.asyncProperty(reportsArbitrary, async (reports) => {
        same((await packShards(reports)).flatMap(unpackShard), reports);
      }),
      { numRuns: 60 },
    );
  });

  it("leave out a channel's copy of its report's records and the report's own key, and put both back", async () => {
    const delivered = { ...report('a', 5), ...deliveredFields(report('a', 5), '2026-05-01T11:05:00.000Z', true) } as BillingReport;
    const [shard] = await packShards([delivered]);
    const stored = JSON.stringify(JSON.parse(gunzipSync(shard!).toString('utf8')));
    expect(JSON.parse(gunzipSync(shard!).toString('utf8')).v).toBe(FORMAT_VERSION);
    // The idempotency key appears once (the report's own field), not again in each record.
    expect(stored.split('uab_a').length - 1).toBe(1);
    same(unpackShard(shard), [delivered]);
  });

  it('split so each shard stays under the item limit, whatever the reports hold', async () => {
    // Incompressible text: each report's message alone is a good part of a shard's limit.
    const noisy = Array.from({ length: 6 }, (_, i) => report(`s${i}`, i, { error_message: randomBytes(150_000).toString('base64') }));
    const shards = await packShards(noisy);
    expect(shards.length).toBeGreaterThan(1);
    for (const shard of shards) expect(shard.byteLength).toBeLessThanOrEqual(SHARD_GZIP_BYTES);
    same(shards.flatMap(unpackShard), noisy);
  });

  it('refuse any other format instead of guessing', () => {
    expect(() => unpackShard(gzipSync(JSON.stringify([report('a', 1)])))).toThrow(/unknown format/);
    expect(() => unpackShard(gzipSync(JSON.stringify({ v: FORMAT_VERSION + 1, reports: {} })))).toThrow(/unknown format/);
  });
});

describe('outcome overlays', () => {
  const asBase = (reports: readonly BillingReport[]) => new Map(reports.map((r) => [reportKeyOf(r), r]));

  it('rebuild, per report, the very object delivery produced, whatever was set on which report', async () => {
    await fc.assert(
      fc.asyncProperty(
        reportsArbitrary,
        fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.constantFrom('set', 'spread', 'untouched')), { maxLength: 40 }),
        async (reports, changes) => {
          const stored = unpackShard((await packShards(reports))[0]!);
          const entries: OutcomeEntryOfReport[] = stored.map((subject) => ({ key: reportKeyOf(subject), report: subject }));
          for (const [at, success, how] of changes) {
            const i = at % entries.length;
            const subject = reportAfter(entries[i]!);
            const set = deliveredFields(subject, `2026-05-01T12:${String(i % 60).padStart(2, '0')}:00.000Z`, success);
            if (how === 'set' && entries[i]!.set === undefined) entries[i] = { key: entries[i]!.key, report: entries[i]!.report, set };
            else if (how === 'spread') entries[i] = { key: entries[i]!.key, report: { ...subject, ...set } as BillingReport };
          }
          const base = asBase(stored);
          const overlay = outcomeOverlay(base, entries);
          if (overlay === undefined) throw new Error('an overlay of the same reports must exist');
          const changed = new Map(unpackOverlay(overlay));
          const read = stored.map((subject) => {
            const entry = changed.get(reportKeyOf(subject));
            return entry ? applyOutcome(subject, entry) : subject;
          });
          same(read, entries.map(reportAfter));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('name removed fields and keep a report whose key order changed whole', () => {
    const shard = report('a', 3, { error_code: 'http_503', error_message: 'down' });
    const { error_code: _code, error_message: _message, ...cleared } = { ...shard, status: 'success' as const, success: true };
    const reordered = Object.fromEntries(Object.entries({ ...shard, status: 'success' }).reverse()) as unknown as BillingReport;
    for (const after of [cleared as BillingReport, reordered]) {
      const overlay = outcomeOverlay(asBase([shard]), [{ key: reportKeyOf(after), report: after }])!;
      const [[, entry]] = unpackOverlay(overlay) as [[string, unknown]];
      expect(Object.keys(entry as object)).toEqual(after === reordered ? ['replacement'] : ['set', 'unset']);
      same(applyOutcome(shard, entry as never), after);
    }
  });

  it('do not exist when the set of reports changed (only a full commit can record that)', () => {
    const reports = [report('a', 1), report('b', 2)];
    expect(outcomeOverlay(asBase(reports), [{ key: reportKeyOf(reports[0]!), report: reports[0]! }])).toBeUndefined();
    expect(
      outcomeOverlay(
        asBase(reports),
        [reports[0]!, report('c', 3)].map((r) => ({ key: reportKeyOf(r), report: r })),
      ),
    ).toBeUndefined();
  });
});

describe('report list cursors', () => {
  it('round-trip a sort key and refuse anything else with a 400 naming the cursor', () => {
    const sk = `W#${windowStart}#meter#H`;
    expect(decodeCursor(encodeCursor(sk))).toBe(sk);
    expect(() => decodeCursor(Buffer.from('REPORTS#x').toString('base64url'))).toThrow(
      expect.objectContaining({ status: 400, details: [{ field: 'cursor', reason: 'is not a cursor this list returned' }] }),
    );
  });
});
