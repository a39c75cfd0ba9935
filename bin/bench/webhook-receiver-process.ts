/**
 * The billing bench's webhook receiver, run as a child process (`fork`): a real receiver runs on
 * another machine, so its work (parse, verify, dedupe, add up) must not share the billing run's
 * event loop. It does what docs/billing.md tells receivers to do — verify `X-Usage-Signature` over
 * the raw body, take each inner event of a batch once by its `id`, add each event's `delta` to its
 * subscription's total — and keeps only ids and totals (millions of events pass through it).
 *
 * Protocol (IPC): the child sends `{url}` once listening; the parent sends `'totals'` and gets
 * `{events, duplicates, totals: {subscription id: sum of deltas as text}}`; `'stop'` ends it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, verifyWebhook } from '../../functions/billing/providers/webhook-signature';

export interface ReceiverTotals {
  readonly events: number;
  readonly duplicates: number;
  readonly refused: number;
  readonly totals: Record<string, string>;
}

interface UsageEvent {
  readonly id: string;
  readonly data: { readonly delta: number; readonly subscription: { readonly id: string } };
}

const secret = process.env['BENCH_WEBHOOK_SECRET'];
if (!secret || !process.send) throw new Error('webhook-receiver-process: run it with fork() and BENCH_WEBHOOK_SECRET');

const seen = new Set<string>();
const totals = new Map<string, bigint>();
let duplicates = 0;
let refused = 0;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    // Verified over the raw bytes (as received; no second UTF-8 encoding of a decoded string).
    const raw = Buffer.concat(chunks);
    const check = verifyWebhook(raw, String(req.headers[SIGNATURE_HEADER.toLowerCase()] ?? ''), secret, Math.floor(Date.now() / 1000));
    if (!check.valid) {
      refused += 1;
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'invalid_signature', message: check.reason } }));
      return;
    }
    const event = JSON.parse(raw.toString('utf8')) as { type?: string; data?: { events?: UsageEvent[] } } & Partial<UsageEvent>;
    const events = event.type === 'billing.usage_report.batch' ? (event.data?.events ?? []) : [event as UsageEvent];
    for (const inner of events) {
      if (seen.has(inner.id)) {
        duplicates += 1;
        continue;
      }
      seen.add(inner.id);
      const subscription = inner.data.subscription.id;
      totals.set(subscription, (totals.get(subscription) ?? 0n) + BigInt(inner.data.delta));
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
  });
});

server.listen(0, '127.0.0.1', () => {
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});

process.on('message', (message) => {
  if (message === 'totals') {
    const answer: ReceiverTotals = { events: seen.size, duplicates, refused, totals: Object.fromEntries([...totals].map(([k, v]) => [k, v.toString()])) };
    process.send!(answer);
  } else if (message === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
// The parent went away (crashed bench): do not linger.
process.on('disconnect', () => process.exit(0));
