import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { csvCell, csvColumns, flatten, PartBuilder } from '../../../functions/exports/export-encoding';

/** RFC 4180 read back by hand: the rows and cells a spreadsheet would see. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += char;
  }
  return rows;
}

const text = fc.string({ unit: fc.constantFrom('a', 'Z', ',', '"', '\n', '\r', ' ', 'é', '1'), maxLength: 12 });

describe('export parts', () => {
  it('write CSV that reads back to the same cells, whatever the text holds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ id: fc.uuid(), note: text, count: fc.integer() }), { minLength: 1, maxLength: 10 }), async (rows) => {
        const part = new PartBuilder('csv', ['note', 'count']);
        part.add(rows.map((row) => ({ _id: row.id, _source: { note: row.note, count: row.count } })));
        const parsed = parseCsv(gunzipSync(await part.file()).toString('utf8'));
        expect(parsed).toEqual([['_id', 'note', 'count'], ...rows.map((row) => [row.id, row.note, String(row.count)])]);
        expect(part.rowCount).toBe(rows.length);
      }),
    );
  });

  it('write one JSON document per NDJSON line, exactly what was read', async () => {
    const hits = [
      { _id: 'a', _source: { user_id: 'u', metadata: { __proto__: { x: 1 }, plan: 'pro' } } },
      { _id: 'b', _source: { n: 2 } },
    ];
    const part = new PartBuilder('ndjson', null);
    part.add(hits);
    const lines = gunzipSync(await part.file())
      .toString('utf8')
      .split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line))).toEqual(hits.map((hit) => JSON.parse(JSON.stringify(hit))));
    expect(part.textBytes).toBe(lines.reduce((sum, line) => sum + line.length + 1, 0));
  });

  it('flatten nested objects to dotted columns, keep arrays whole, and name every column of the part, _id first', () => {
    const row = flatten({ request: { verb: 'GET', headers: { a: '1' } }, tags: ['x', 'y'], constructor: 'data' });
    expect({ ...row }).toEqual({ 'request.verb': 'GET', 'request.headers.a': '1', tags: ['x', 'y'], constructor: 'data' });
    expect(
      csvColumns(
        [
          { _id: '1', b: 1 },
          { _id: '2', a: 2 },
        ],
        null,
      ),
    ).toEqual(['_id', 'a', 'b']);
    expect(csvCell(['x', 'y'])).toBe('"[""x"",""y""]"');
    expect(csvCell(null)).toBe('');
  });
});
