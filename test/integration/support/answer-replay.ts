import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RecordedAnswer } from '../../../bin/local/answer-log';
import { AnswerChecker } from '../../../functions/openapi/answer-check';
import { OPENAPI_FILES } from '../../../functions/openapi/documents';

/** Paths the local management server answers that are no API: the console's files, and /docs that sends a browser to its API reference page. */
const NOT_API = /^\/(console(\/|$)|docs$)/;

/**
 * Every answer the run's local servers recorded, checked against the committed documents: the
 * mismatches, each once with how often it was seen (empty when every answer is documented).
 */
export function replayAnswers(logFile: string): { checked: number; mismatches: string[] } {
  if (!existsSync(logFile)) return { checked: 0, mismatches: [] };
  const root = resolve(__dirname, '../../..');
  const checkers = {
    collector: new AnswerChecker(JSON.parse(readFileSync(resolve(root, OPENAPI_FILES.collector), 'utf8')), 'collector'),
    management: new AnswerChecker(JSON.parse(readFileSync(resolve(root, OPENAPI_FILES.management), 'utf8')), 'management'),
  };
  const seen = new Map<string, number>();
  let checked = 0;
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (line === '') continue;
    const answer = JSON.parse(line) as RecordedAnswer;
    if (answer.api === 'management' && NOT_API.test(answer.path)) continue;
    checked += 1;
    const problem = checkers[answer.api].problem(answer);
    if (problem !== undefined) seen.set(`${answer.api}: ${problem}`, (seen.get(`${answer.api}: ${problem}`) ?? 0) + 1);
  }
  return { checked, mismatches: [...seen].map(([problem, count]) => (count > 1 ? `${problem} (×${count})` : problem)) };
}
