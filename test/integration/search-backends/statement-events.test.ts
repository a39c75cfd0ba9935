import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { WEIGHTED_COUNT, type RunMeter } from '../../../functions/billing/run/run-meter';
import { statementEventCount, statementEventsDigest, statementEventsPage } from '../../../functions/customer-portal/statements/statement-events';
import type { QuantityAsk } from '../../../functions/customer-portal/usage/window-quantities';
import type { TenantScope } from '../../../functions/search/port';
import { conformanceBackends, indexForTests } from '../../conformance/backends';
import { apiCall } from '../../conformance/fixtures';
import { toIndexDocument } from '../../conformance/runner';

/**
 * The events behind a statement's line, on both backends: for any events (several at the same
 * instant, of the subscription, of its company without one, of others, voided), the list holds
 * exactly the events the run bills to the subscription, in time order with ties by id, each once
 * however the pages are cut, and its digest is the SHA-256 of the pages joined.
 */

const HOUR = 3_600_000;
const START = Date.parse('2026-03-01T00:00:00.000Z');
const PERIOD = { start: new Date(START), end: new Date(START + 6 * HOUR), closed: true };

interface Sent {
  readonly id: string;
  readonly minute: number;
  readonly owner: 'subscription' | 'other subscription' | 'company' | 'other';
  readonly weight: number;
}

const meter: RunMeter = {
  id: 'm1',
  name: 'calls',
  provider: 'webhook',
  params: {},
  body: { query: { match_all: {} } },
  metric: WEIGHTED_COUNT,
  aggregator: 'sum',
  perSubscription: false,
  periodMs: HOUR,
  multiplier: 1,
  rounding: 'nearest',
  billedIds: new Set(),
  createdAt: new Date(START),
};

const ask: QuantityAsk = {
  meter,
  subscription: {
    subscriptionId: 'sub-1',
    companyId: 'co-1',
    status: 'active',
    periodStart: PERIOD.start,
    periodEnd: PERIOD.end,
    items: [],
    createdAt: null,
    metadata: {},
  },
  companyAttributed: true,
  period: PERIOD,
};

const sentEvents = fc.uniqueArray(
  fc.record({
    id: fc.integer({ min: 1, max: 999 }).map((n) => `ev-${String(n).padStart(3, '0')}`),
    // Minutes into the period (some past its end, some shared by several events).
    minute: fc.integer({ min: 0, max: 400 }),
    owner: fc.constantFrom('subscription' as const, 'other subscription' as const, 'company' as const, 'other' as const),
    weight: fc.integer({ min: 1, max: 3 }),
  }),
  { selector: (event) => event.id, maxLength: 30 },
);

describe.each(conformanceBackends())('statement event lists: $name', (backend) => {
  const opened = indexForTests(backend);
  let round = 0;

  it('lists exactly the billed events in order, whatever the page size, and digests the pages joined', async () => {
    await fc.assert(
      fc.asyncProperty(sentEvents, fc.integer({ min: 1, max: 7 }), async (events, pageLines) => {
        round += 1;
        const scope: TenantScope = { org_id: 'org-st', app_id: `app-${round}` };
        const at = (event: Sent) => new Date(START + event.minute * 60_000).toISOString();
        const documents = events.map((event) => {
          const call = apiCall({ id: event.id, time: at(event), company: event.owner === 'other' ? 'co-2' : 'co-1', weight: event.weight });
          // The subscription's own events name it; so do the company's events of its other subscription.
          const named = { subscription: { subscription_id: 'sub-1' }, 'other subscription': { subscription_id: 'sub-2' } }[event.owner as string] ?? {};
          return toIndexDocument(scope, 'events', { ...call, data: { ...call.data, ...named } });
        });
        const index = opened();
        if (documents.length > 0) expect((await index.index(documents)).failures).toEqual([]);
        await index.refresh();
        const source = { index, scope, now: new Date(START + 10 * HOUR) };

        const billed = events
          .filter((event) => (event.owner === 'subscription' || event.owner === 'company') && event.minute < 6 * 60)
          .sort((a, b) => a.minute - b.minute || (a.id < b.id ? -1 : 1));
        let joined = '';
        let after: string | undefined;
        let pages = 0;
        do {
          const page = await statementEventsPage(source, ask, after, pageLines);
          expect(page.rows).toBeLessThanOrEqual(pageLines);
          joined += page.lines;
          after = page.next;
          pages += 1;
        } while (after !== undefined);
        const [header, ...rows] = joined.trimEnd().split('\n');
        expect(header).toBe('transaction_id,time,window_start,name,quantity');
        expect(rows.map((row) => row.split(',')[0])).toEqual(billed.map((event) => event.id));
        expect(rows.map((row) => row.split(',').slice(1, 3))).toEqual(
          billed.map((event) => [at(event), new Date(Math.floor(Date.parse(at(event)) / HOUR) * HOUR).toISOString()]),
        );
        expect(rows.map((row) => Number(row.split(',')[4]))).toEqual(billed.map((event) => event.weight));
        expect(pages).toBeGreaterThanOrEqual(Math.ceil(billed.length / pageLines));
        expect(await statementEventCount(source, ask)).toBe(billed.length);
        expect(await statementEventsDigest(source, ask, pageLines)).toEqual({ digest: createHash('sha256').update(joined).digest('hex'), rows: billed.length });
        // Cut into other pages, the same file.
        expect((await statementEventsDigest(source, ask)).digest).toBe(createHash('sha256').update(joined).digest('hex'));
      }),
      { numRuns: backend.name.startsWith('OpenSearch') ? 8 : 30 },
    );
  });
});
