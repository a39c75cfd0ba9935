import { assertStorable, MAX_STORED_DOCUMENT_BYTES } from '../../../functions/resources/storable';
import { ValidationError } from '../../../functions/shared/errors';

const issuesOf = (document: Record<string, unknown>) => {
  try {
    assertStorable(document);
    return [];
  } catch (error) {
    if (error instanceof ValidationError) return error.details.map((d) => `${d.field}: ${d.reason}`);
    throw error;
  }
};

describe('assertStorable', () => {
  it('passes what DynamoDB stores exactly', () => {
    expect(issuesOf({ a: 0, b: -0.5, c: Number.MAX_SAFE_INTEGER, d: 1e-130, e: [null, 'x', { ' ': true }] })).toEqual([]);
  });

  it('names each member it cannot store', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 40; i += 1) deep = { d: deep };
    const found = issuesOf({ big: 2 ** 53, tiny: [1, -1e-200], map: { '': 1 }, deep });
    expect(found.map((issue) => issue.split(':')[0])).toEqual(['big', 'tiny[1]', 'map', expect.stringMatching(/^deep(\.d)+$/)]);
  });

  it('refuses documents beyond the item size budget', () => {
    expect(issuesOf({ blob: 'x'.repeat(MAX_STORED_DOCUMENT_BYTES) })).toEqual([`body: the stored document would exceed ${MAX_STORED_DOCUMENT_BYTES} bytes`]);
    // Small JSON, but DynamoDB counts a byte per list element on top of each number.
    expect(issuesOf({ list: Array.from({ length: 120_000 }, () => 1) })).toHaveLength(1);
    expect(issuesOf({ list: Array.from({ length: 100_000 }, () => 1) })).toEqual([]);
  });
});
