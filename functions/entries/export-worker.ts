/** Lambda entry: the scheduled export worker (EventBridge, every minute): runs queued exports, continues those whose runner stopped, deletes expired parts. */
import type { Context } from 'aws-lambda';
import { exportRunDeps } from '../composition-root/export-services';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { ServiceStores } from '../composition-root/service-stores';
import { ExportWorkerEnv, parseEnv } from '../definitions/environment';
import { searchIndexFromEnv } from '../search/search-backend';
import { processExportQueue } from '../exports/export-queue';

const env = parseEnv(ExportWorkerEnv);
const deps = exportRunDeps(new ServiceStores(lambdaStoresInput(env)), searchIndexFromEnv(env));

/** Time kept back from the Lambda's timeout: the part in progress is finished and recorded within it. */
const FINISH_MS = 90_000;

export async function handler(_event: unknown, context: Pick<Context, 'getRemainingTimeInMillis'>): Promise<{ ran: number; cleared: number; failed: number }> {
  const summary = await processExportQueue(deps, { deadline: Date.now() + context.getRemainingTimeInMillis() - FINISH_MS });
  // A failed job is retried by the next scheduled run once its lease ends; failing the invocation would only re-run the others.
  for (const failure of summary.errors) console.error(JSON.stringify({ message: 'export failed', export: failure.ref, error: failure.message }));
  return { ran: summary.ran, cleared: summary.cleared, failed: summary.errors.length };
}
