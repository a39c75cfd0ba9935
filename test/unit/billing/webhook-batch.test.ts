import { WebhookParams } from '../../../schemas/billing/provider-params';
import { verifyWebhook } from '../../../functions/billing/providers/webhook-signature';
import { webhookEvent } from '../../../functions/billing/providers/webhook-client';
import { sendWebhookBatch, WEBHOOK_BATCH_TYPE, webhookBatches } from '../../../functions/billing/run/webhook-batch';
import { jsonArrayBytes } from '../../../functions/billing/run/json-bytes';
import { instantRuntime, reportRequest } from '../../support/fake-providers/report-request';

const params = WebhookParams.parse({ channel_ids: ['ch'], custom_plan: { plan_id: 'plan_1' } });
const channel = {
  id: 'ch',
  name: 'Ledger',
  url: 'https://ledger.example.com/usage',
  status: 'active' as const,
  headers: {},
  secrets: ['whsec_test_secret_1234'],
};

describe('webhook batch body', () => {
  it('is exactly the JSON of {id, type, created, data: {events}}, signed over those bytes', async () => {
    const requests = [
      reportRequest(params, { destination: 'webhook:ch', subscriptionId: 'sub_1', quantity: 5n }),
      reportRequest(params, { destination: 'webhook:ch', subscriptionId: 'sub_é', quantity: 2n ** 64n }),
    ];
    const sent: { body: Buffer; signature: string }[] = [];
    const [batch, ...more] = webhookBatches(requests, (r) => r, new Date(), { maxEvents: 500, maxBytes: 100_000 });
    expect(more).toHaveLength(0);
    const outcome = await sendWebhookBatch(channel, batch!, {
      runtime: instantRuntime(),
      fetch: async (_url, init) => {
        sent.push({ body: init.body as Buffer, signature: new Headers(init.headers).get('x-usage-signature') ?? '' });
        return new Response('{"received":true}', { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    expect(outcome.success).toBe(true);
    expect(sent).toHaveLength(1);
    const text = sent[0]!.body.toString('utf8');
    const head = /^\{"id":"([^"]+)","type":"([^"]+)","created":"([^"]+)"/.exec(text);
    expect(head?.[2]).toBe(WEBHOOK_BATCH_TYPE);
    // Byte for byte what one JSON.stringify of the envelope would give (the 2^64 quantity as a plain literal).
    const created = new Date(head![3]!);
    const expected = JSON.stringify(
      { id: head![1], type: WEBHOOK_BATCH_TYPE, created: head![3], data: { events: requests.map((r) => webhookEvent(r, created)) } },
      (_k, v: unknown) => (typeof v === 'bigint' ? `BIG${v}` : v),
    ).replace(/"BIG(\d+)"/g, '$1');
    expect(text).toBe(expected);
    expect(text).toContain('"quantity":18446744073709551616,');
    expect(text).toContain('"sub_é"');
    expect(verifyWebhook(sent[0]!.body, sent[0]!.signature, channel.secrets[0]!, Math.floor(Date.now() / 1000)).valid).toBe(true);
  });

  it('splits events into POSTs of at most maxEvents events and maxBytes bytes, in order', () => {
    const requests = Array.from({ length: 50 }, (_, i) =>
      reportRequest(params, { destination: 'webhook:ch', subscriptionId: `sub_${i}`, quantity: BigInt(i) }),
    );
    const createdAt = new Date('2026-01-01T00:00:00Z');
    const whole = webhookBatches(requests, (r) => r, createdAt, { maxEvents: 500, maxBytes: 10_000_000 });
    expect(whole).toHaveLength(1);
    const eventBytes = Buffer.byteLength(JSON.stringify(webhookEvent(requests[0]!, createdAt)));
    for (const limits of [
      { maxEvents: 7, maxBytes: 10_000_000 },
      { maxEvents: 500, maxBytes: 4 * eventBytes + 400 },
      { maxEvents: 3, maxBytes: 5 * eventBytes },
    ]) {
      const batches = webhookBatches(requests, (r) => r, createdAt, limits);
      expect(batches.flatMap((b) => b.items)).toEqual(requests);
      for (const batch of batches) {
        expect(batch.items.length).toBeLessThanOrEqual(limits.maxEvents);
        expect(batch.body.byteLength).toBeLessThanOrEqual(limits.maxBytes);
        const parsed = JSON.parse(batch.body.toString('utf8')) as { id: string; data: { events: { id: string }[] } };
        expect(parsed.id).toBe(batch.id);
        expect(parsed.data.events.map((e) => e.id)).toEqual(batch.items.map((r) => r.idempotencyKey));
      }
      // Full batches: the next event would not have fitted.
      let next = 0;
      for (const batch of batches.slice(0, -1)) {
        next += batch.items.length;
        const nextBytes = Buffer.byteLength(JSON.stringify(webhookEvent(requests[next]!, createdAt)));
        expect(batch.items.length === limits.maxEvents || batch.body.byteLength + nextBytes + 1 > limits.maxBytes).toBe(true);
      }
    }
    // An event larger than maxBytes goes alone, never dropped.
    const alone = webhookBatches(requests.slice(0, 3), (r) => r, createdAt, { maxEvents: 500, maxBytes: 10 });
    expect(alone.map((b) => b.items.length)).toEqual([1, 1, 1]);
    // The batch id depends on the events it holds, not on their order.
    const reversed = webhookBatches([...requests].reverse(), (r) => r, createdAt, { maxEvents: 500, maxBytes: 10_000_000 });
    expect(reversed[0]!.id).toBe(whole[0]!.id);
  });

  it('jsonArrayBytes joins serialised elements into one JSON array', () => {
    expect(jsonArrayBytes([]).toString()).toBe('[]');
    const bytes = jsonArrayBytes(['{"a":1}', '"ü"', '3']);
    expect(bytes.toString('utf8')).toBe('[{"a":1},"ü",3]');
    expect(bytes.length).toBe(Buffer.byteLength('[{"a":1},"ü",3]'));
  });
});
