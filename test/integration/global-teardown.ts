import { rmSync } from 'node:fs';
import type { RunningEmulators } from '../../bin/local/emulators';
import type { OpenSearchNode } from '../../bin/local/opensearch-node';
import { ANSWER_LOG, EMULATORS_KEY, OPENSEARCH_KEY } from './global-setup';
import { replayAnswers } from './support/answer-replay';

/**
 * Stops the emulators global-setup.ts started (nothing may outlive the test run), then checks every
 * answer the run's servers gave against the committed OpenAPI documents: one out of them fails the run.
 */
export default async function globalTeardown(): Promise<void> {
  const emulators = (globalThis as Record<string, unknown>)[EMULATORS_KEY] as RunningEmulators | undefined;
  delete (globalThis as Record<string, unknown>)[EMULATORS_KEY];
  await emulators?.stop();
  const openSearch = (globalThis as Record<string, unknown>)[OPENSEARCH_KEY] as { node: OpenSearchNode; home: string } | undefined;
  delete (globalThis as Record<string, unknown>)[OPENSEARCH_KEY];
  await openSearch?.node.stop();
  if (openSearch) rmSync(openSearch.home, { recursive: true, force: true });
  const { checked, mismatches } = replayAnswers(ANSWER_LOG);
  rmSync(ANSWER_LOG, { force: true });
  process.stderr.write(`OpenAPI replay: ${checked} answers checked against the committed documents, ${mismatches.length} kinds of mismatch\n`);
  if (mismatches.length > 0) throw new Error(`Answers out of the committed OpenAPI documents:\n${mismatches.join('\n')}`);
}
