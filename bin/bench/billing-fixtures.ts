import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { eventDocument as indexedEvent } from '../../functions/search/index-documents';
import type { IndexDocument, SearchableIndex, TenantScope } from '../../functions/search/port';
import type { ReceiverTotals } from './webhook-receiver-process';

/** What the billing benches share: the webhook receiver in a child process, and generated events written to the index. */

export const BENCH_CHANNEL = 'bench';
export const BENCH_WEBHOOK_SECRET = 'whsec_bench';

/** The receiver child process (webhook-receiver-process.ts). */
export async function startReceiver(): Promise<{ url: string; totals(): Promise<ReceiverTotals>; stop(): Promise<void> }> {
  const child: ChildProcess = fork(join(__dirname, 'webhook-receiver-process.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_WEBHOOK_SECRET },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [first] = (await once(child, 'message')) as [{ url: string }];
  return {
    url: first.url,
    async totals() {
      child.send('totals');
      const [answer] = (await once(child, 'message')) as [ReceiverTotals];
      return answer;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.send('stop');
      await once(child, 'exit');
    },
  };
}

export async function indexAll(index: SearchableIndex, docs: IndexDocument[]): Promise<void> {
  if (docs.length === 0) return;
  const result = await index.index(docs);
  if (result.failures.length > 0) throw new Error(`bench: indexing failed: ${JSON.stringify(result.failures.slice(0, 3))}`);
}

/** A generated API call as the consumer indexes it (the project's own eventDocument), with `fields` at the top of its data. */
export function eventDocument(scope: TenantScope, id: string, time: Date, fields: Record<string, unknown>, verb: string, status: number): IndexDocument {
  const iso = time.toISOString();
  return indexedEvent(scope, 'event', {
    id,
    time: iso,
    received_at: iso,
    data: { request: { time: iso, uri: 'https://api.example.com/items', verb, route: '/items' }, response: { time: iso, status }, ...fields },
  });
}
