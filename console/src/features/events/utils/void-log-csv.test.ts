import fc from 'fast-check';
import type { EventVoid } from '../api/event-voids';
import { voidLogCsv } from './void-log-csv';

const entry = (overrides: Partial<EventVoid> = {}): EventVoid => ({
  id: 'v1',
  status: 'completed',
  reason: 'double send',
  created_by: 'u-1',
  created_at: '2026-11-30T10:00:00.000Z',
  finished_at: '2026-11-30T10:00:01.000Z',
  event_ids: null,
  query: { term: { company_id: 'acme' } },
  from: '2026-11-29T00:00:00.000Z',
  to: '2026-11-30T00:00:00.000Z',
  matched: 3,
  voided: 3,
  billing_hours: 2,
  replacement: null,
  error: null,
  ...overrides,
});

/** Splits CSV text into rows of fields (RFC 4180), to read a download back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let fieldText = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      fieldText += '"';
      i += 1;
    } else if (quoted && char === '"') quoted = false;
    else if (quoted || (char !== '"' && char !== ',' && !(char === '\r' && text[i + 1] === '\n'))) fieldText += char;
    else if (char === '"') quoted = true;
    else {
      row.push(fieldText);
      fieldText = '';
      if (char === '\r') {
        rows.push(row);
        row = [];
        i += 1;
      }
    }
  }
  return rows;
}

describe('the void log as CSV', () => {
  it('has a header and one row per void, with queries and ids as JSON', () => {
    const rows = parseCsv(voidLogCsv([entry(), entry({ id: 'v2', query: null, event_ids: ['a', 'b'] })]));
    expect(rows[0]!.slice(0, 4)).toEqual(['id', 'created_at', 'created_by', 'reason']);
    expect(rows[0]!.slice(7, 9)).toEqual(['event_ids', 'query']);
    expect(rows[1]![8]).toBe('{"term":{"company_id":"acme"}}');
    expect(rows[2]![7]).toBe('["a","b"]');
  });

  it('reads back any reason as written, commas, quotes and line breaks included', () => {
    fc.assert(
      fc.property(fc.string(), (reason) => {
        expect(parseCsv(voidLogCsv([entry({ reason })]))[1]![3]).toBe(reason);
      }),
    );
  });
});
