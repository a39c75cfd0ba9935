import { resolve } from 'node:path';
import { lint, loadConfig } from '@redocly/openapi-core';
import { OPENAPI_FILES } from '../../../functions/openapi/documents';

/** Redocly's recommended rules over the committed documents: no errors (warnings are style, reported by `npx redocly lint`). */
it.each(['collector', 'management'] as const)(
  'the committed %s document passes Redocly lint without errors',
  async (api) => {
    const config = await loadConfig({});
    const problems = await lint({ ref: resolve(__dirname, '../../..', OPENAPI_FILES[api]), config });
    const errors = problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? ''}`);
    expect(errors).toEqual([]);
  },
  60_000,
);
