import { conformanceBackends } from '../../conformance/backends';
import { CONFORMANCE_CASES } from '../../conformance/cases';
import { runCase } from '../../conformance/runner';
import type { SearchableIndex } from '../../../functions/search/port';

/**
 * The search conformance suite: every case of test/conformance/cases against DuckDB, and against
 * OpenSearch when OPENSEARCH_URL is set. Each case gets tenants of its own, so cases share one index.
 */

describe('conformance cases', () => {
  it('have unique names and at least 70 of them', () => {
    const names = CONFORMANCE_CASES.map((conformanceCase) => conformanceCase.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(70);
  });
});

describe.each(conformanceBackends({ duckDbTypedMetadata: true }))('search conformance: $name', (backend) => {
  let index: SearchableIndex;

  beforeAll(async () => {
    index = await backend.open();
  }, 60_000);

  afterAll(async () => {
    await index?.close();
    await backend.dispose();
  }, 60_000);

  it.each(CONFORMANCE_CASES.map((conformanceCase) => [`${conformanceCase.area}: ${conformanceCase.name}`, conformanceCase] as const))(
    '%s',
    async (_title, conformanceCase) => {
      await runCase(index, conformanceCase);
    },
  );
});
