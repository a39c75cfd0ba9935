import type { QueryNode } from '../../../schemas/search-tree';
import { sleep } from '../../shared/concurrency';
import { ServiceUnavailableError } from '../../shared/errors';
import { VOID_ID_FIELD, VOIDED_AT_FIELD, type EventVoidMark, type SearchContext } from '../port';
import { readTarget } from './naming';
import { send, wrapped, type OpenSearchTarget, type TaskAnswer } from './opensearch-search';
import { LENIENT_TARGET } from './search-request';

/**
 * Marks the matching events voided with one update-by-query, run as a task of the cluster and waited
 * for: a request that waited inline could be retried by the client after a timeout, and the retry
 * would find the events voided already and answer 0. The task's own answer says how many it marked;
 * it refreshes before it ends, so no read after it sees them as live. A version conflict (the
 * consumer writing the same event at that moment) fails the void with a 503; events already marked
 * stay voided and a retry marks the rest, as it reads only events not voided yet.
 */
const VOID_POLL_MS = 250;

export async function voidEventsOpenSearch(target: OpenSearchTarget, context: SearchContext, query: QueryNode, mark: EventVoidMark): Promise<number> {
  const started = (await send(() =>
    target.client.updateByQuery({
      index: readTarget(target.prefix, 'events'),
      ...LENIENT_TARGET,
      refresh: true,
      conflicts: 'proceed',
      slices: 'auto',
      wait_for_completion: false,
      body: {
        query: wrapped(target, context, query),
        script: {
          lang: 'painless',
          source: `ctx._source['${VOIDED_AT_FIELD}'] = params.voided_at; ctx._source['${VOID_ID_FIELD}'] = params.void_id;`,
          params: { voided_at: mark.voided_at, void_id: mark.void_id },
        },
      },
    }),
  )) as { task?: string };
  if (!started.task) throw new ServiceUnavailableError('OpenSearch did not start the void; nothing was marked, retry');
  for (;;) {
    // Read every quarter second: each read is short, whatever the task's length (a request waiting on it could time out).
    await sleep(VOID_POLL_MS);
    const answer = (await send(() => target.client.tasks.get({ task_id: started.task! }))) as TaskAnswer;
    if (!answer.completed) continue;
    const response = answer.response ?? {};
    const updated = Number(response.updated ?? 0);
    const conflicts = Number(response.version_conflicts ?? 0);
    if (answer.error || (response.failures ?? []).length > 0 || conflicts > 0) {
      const why = answer.error
        ? `failed: ${answer.error.type ?? 'error'}: ${answer.error.reason ?? ''}`
        : conflicts > 0
          ? `found ${conflicts} being written meanwhile`
          : `failed: ${JSON.stringify(response.failures).slice(0, 300)}`;
      throw new ServiceUnavailableError(`OpenSearch voided ${updated} events, then ${why}; the same void again marks the rest`);
    }
    return updated;
  }
}
