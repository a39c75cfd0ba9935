import { decodeRowTable, encodeRowTable, isRowTable } from '../../../functions/billing/reports/row-table';

/** The contract: decode(parse(encode(x))) is exactly parse(stringify(x)), key order included. */
const roundTrip = (objects: readonly object[]) => decodeRowTable(JSON.parse(encodeRowTable(objects).toString('utf8')));
const viaJson = (objects: readonly object[]) => JSON.parse(JSON.stringify(objects)) as unknown[];

describe('row table: a compact JSON encoding of similar objects', () => {
  it('round-trips objects exactly as JSON does, shared values stored once', () => {
    const objects = Array.from({ length: 50 }, (_, i) => ({
      id: `r-${i}`,
      org: 'org-1',
      kind: 'usage',
      ok: true,
      none: null,
      count: i % 3,
      nested: { a: i, list: [1, 'x', null] },
      at: '2026-11-01T00:00:00.000Z',
    }));
    expect(JSON.stringify(roundTrip(objects))).toBe(JSON.stringify(objects));
    const table = JSON.parse(encodeRowTable(objects).toString('utf8')) as { shapes: { keys: string[]; shared: [number, unknown][] }[]; rows: unknown[][] };
    expect(table.shapes).toHaveLength(1);
    // org, kind, ok, none, at are the same everywhere; count differs, objects are never shared.
    expect(table.shapes[0]!.shared.map(([k]) => table.shapes[0]!.keys[k])).toEqual(['org', 'kind', 'ok', 'none', 'at']);
    expect(table.rows[0]).toEqual([0, 'r-0', 0, { a: 0, list: [1, 'x', null] }]);
    expect(encodeRowTable(objects).byteLength).toBeLessThan(JSON.stringify(objects).length / 2);
  });

  it("keeps each object's own key order and set of keys (several shapes, interleaved)", () => {
    const objects = [{ a: 1, b: 2 }, { b: 2, a: 1 }, { a: 1 }, { a: 1, b: 2, c: [3] }, { b: 3, a: 1 }, {}];
    const decoded = roundTrip(objects);
    expect(decoded.map((o) => Object.keys(o))).toEqual(objects.map((o) => Object.keys(o)));
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(objects));
  });

  it('drops what JSON drops (undefined, functions, symbols) and writes what JSON writes for the rest', () => {
    const objects = [
      { a: undefined, b: 1, f: () => 1, s: Symbol('x'), d: new Date(0), n: Number.NaN, neg: -0, big: 1e21, text: 'é\u2028"\\' },
      { a: 2, b: 1, d: new Date(1000), n: 5, neg: 0, big: 1e21, text: 'x' },
    ];
    expect(JSON.stringify(roundTrip(objects))).toBe(JSON.stringify(objects));
    expect(roundTrip(objects)).toEqual(viaJson(objects));
  });

  it('a "__proto__" key comes back as an own property, as JSON.parse makes it', () => {
    const objects = [JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as object];
    const [decoded] = roundTrip(objects);
    expect(Object.keys(decoded!)).toEqual(['__proto__', 'x']);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('an empty list, and a value hook with its restore', () => {
    expect(roundTrip([])).toEqual([]);
    const objects = [
      { id: 'a', long: 'x'.repeat(20) },
      { id: 'b', long: 'y'.repeat(20) },
    ];
    const bytes = encodeRowTable(objects, { encodeValues: { long: (value) => (value as string).length }, wrap: { prefix: '{"v":9,"t":', suffix: '}' } });
    const outer = JSON.parse(bytes.toString('utf8')) as { v: number; t: unknown };
    expect(outer.v).toBe(9);
    expect(isRowTable(outer.t)).toBe(true);
    expect(
      decodeRowTable(outer.t, (o) => {
        o['long'] = '#'.repeat(o['long'] as number);
      }),
    ).toEqual([
      { id: 'a', long: '#'.repeat(20) },
      { id: 'b', long: '#'.repeat(20) },
    ]);
  });

  it('repeated columns: each distinct value stored once per shape, rows hold its index, each object gets its own copy', () => {
    const records = [[{ at: 't1', ok: true }], [{ at: 't2', ok: false }]];
    const objects = Array.from({ length: 40 }, (_, i) => ({
      id: `r-${i}`,
      requests: records[i % 2],
      state: i % 3 === 0 ? 'a' : i % 3 === 1 ? 1 : '1',
      note: i % 5 === 0 ? null : 'n',
    }));
    const bytes = encodeRowTable(objects, { repeated: new Set(['requests', 'state', 'note']) });
    const table = JSON.parse(bytes.toString('utf8')) as { shapes: { keys: string[]; values: [number, unknown[]][] }[]; rows: unknown[][] };
    expect(table.shapes[0]!.values).toEqual([
      [1, records],
      [2, ['a', 1, '1']],
      [3, [null, 'n']],
    ]);
    expect(table.rows[0]).toEqual([0, 'r-0', 0, 0, 0]);
    expect(bytes.byteLength).toBeLessThan(JSON.stringify(objects).length / 3);
    const decoded = decodeRowTable(table);
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(objects));
    // Equal values by JSON text, not by reference: copies of a record still share one entry.
    const copies = objects.map((o) => ({ ...o, requests: o.requests!.map((r) => ({ ...r })) }));
    expect(encodeRowTable(copies, { repeated: new Set(['requests', 'state', 'note']) }).equals(bytes)).toBe(true);
    (decoded[0]!['requests'] as { ok: boolean }[])[0]!.ok = false;
    expect((decoded[2]!['requests'] as { ok: boolean }[])[0]!.ok).toBe(true);
    // Neighbours compared by content: different dates (no keys of their own) stay apart, NaN is null as in JSON.
    const dated = [{ at: [new Date(0)] }, { at: [new Date(1000)] }, { at: [new Date(1000)] }, { at: [{ n: Number.NaN }] }, { at: [{ n: null }] }];
    const datedTable = JSON.parse(encodeRowTable(dated, { repeated: new Set(['at']) }).toString('utf8')) as {
      shapes: { values: [number, unknown[]][] }[];
      rows: unknown[][];
    };
    expect(datedTable.shapes[0]!.values[0]![1]).toEqual([[new Date(0).toISOString()], [new Date(1000).toISOString()], [{ n: null }]]);
    expect(datedTable.rows.map((row) => row[1])).toEqual([0, 1, 1, 2, 2]);
    expect(JSON.stringify(decodeRowTable(datedTable))).toBe(JSON.stringify(dated));
    // The value hook sees each object's position.
    const seen: number[] = [];
    encodeRowTable(objects.slice(0, 3), {
      encodeValues: {
        id: (value, _object, i) => {
          seen.push(i);
          return value;
        },
      },
    });
    expect(seen).toEqual([0, 1, 2]);
  });

  it('refuses what is not a row table, or rows that do not fit their shape', () => {
    expect(() => decodeRowTable({ shapes: [{ keys: ['a'], shared: [], values: [[0, ['x']]] }], rows: [[0, 1]] })).toThrow('names value 1 of "a", which has 1');
    expect(() => decodeRowTable([1, 2])).toThrow('not a row table');
    expect(() => decodeRowTable({ shapes: [{ keys: ['a'], shared: [] }], rows: [[1, 'x']] })).toThrow('unknown shape 1');
    expect(() => decodeRowTable({ shapes: [{ keys: ['a'], shared: [] }], rows: [[0, 'x', 'extra']] })).toThrow('has 2 values, its shape takes 1');
  });
});
