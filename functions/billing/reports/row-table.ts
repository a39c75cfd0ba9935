import { jsonArrayBytes, type JsonWrap } from '../run/json-bytes';
import { copyJson, sameJson } from './json-values';

/**
 * A compact JSON encoding of many similar objects (a window's billing reports, their delivery
 * outcomes). Each distinct key list (a "shape") is written once, with the values every object of
 * that shape shares (strings, numbers, booleans, null); each object is then a row of its other
 * values. A window's reports share their tenant, meter, window, statuses and timestamps, and all
 * their key names, so this stores about a third of the bytes of a JSON array of the objects and
 * takes less time to write.
 *
 *   {"shapes": [{"keys": ["a", "b", "c"], "shared": [[1, "same b"]]}, …],
 *    "rows": [[<shape index>, <a>, <c>], …]}
 *
 * Columns the caller names as `repeated` (values that take a few distinct forms across the objects,
 * such as a delivery's request records) store each distinct value once per shape, in `values`, and
 * rows hold its index there: {"keys": […], "shared": […], "values": [[2, [<c0>, <c1>]]]}.
 *
 * decodeRowTable(JSON.parse(bytes)) is exactly JSON.parse(JSON.stringify(objects)): the same keys in
 * the same order with the same values (keys whose value JSON drops, such as undefined, are dropped).
 */
export interface RowTable {
  readonly shapes: readonly {
    readonly keys: readonly string[];
    readonly shared: readonly (readonly [number, unknown])[];
    readonly values?: readonly (readonly [number, readonly unknown[]])[];
  }[];
  readonly rows: readonly (readonly unknown[])[];
}

/** A value JSON leaves out of an object (and would write as null in an array). */
const dropped = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';
const isPrimitive = (value: unknown) => value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
const NOT_SHARED = Symbol('not shared');

interface RepeatedColumn {
  readonly values: unknown[];
  readonly primitives: Map<unknown, number>;
  readonly objects: Map<string, number>;
  /** The last value indexed: neighbours usually repeat it (a delivery batch's reports are adjacent). */
  last?: { value: unknown; index: number };
}

interface Shape {
  readonly keys: string[];
  /** Per key: the value every object of the shape has so far, or NOT_SHARED. */
  readonly candidates: unknown[];
  /** Per repeated key (by index): its distinct values in order, and their indexes (primitives by value, objects by JSON text). */
  repeated?: Map<number, RepeatedColumn>;
}

/**
 * The objects as a row table, in JSON bytes; `wrap` puts text around it (e.g. `{"v":2,"reports":`
 * and `}`) without another copy.
 */
export interface EncodeRowTableOptions {
  readonly wrap?: JsonWrap;
  /**
   * Per key, what a row stores for a value that is not shared (e.g. a shorter form its decoder's
   * `restore` undoes); `index` is the object's position in the list. Other keys are stored as they are.
   */
  readonly encodeValues?: Readonly<Record<string, (value: unknown, object: Record<string, unknown>, index: number) => unknown>>;
  /** Keys whose stored values are kept once per distinct value (see above): for values with few distinct forms. */
  readonly repeated?: ReadonlySet<string>;
}

/** A column a shape's rows hold (its value is not shared by every object of the shape). */
interface RowColumn {
  readonly key: string;
  /** The key's position in the shape. */
  readonly position: number;
  readonly encode: ((value: unknown, object: Record<string, unknown>, index: number) => unknown) | undefined;
  readonly repeated: boolean;
}

export function encodeRowTable(objects: readonly object[], options: EncodeRowTableOptions = {}): Buffer {
  const { wrap = { prefix: '', suffix: '' }, encodeValues, repeated } = options;
  const shapes: Shape[] = [];
  const shapeIds = new Map<string, number>();
  const shapeOf = new Array<number>(objects.length);
  let last = -1;
  objects.forEach((object, i) => {
    const record = object as Record<string, unknown>;
    // Consecutive objects usually share a shape: compared with the last one before listing keys.
    let at = last >= 0 && hasShape(record, shapes[last]!.keys) ? last : undefined;
    const keys = at === undefined ? Object.keys(record).filter((key) => !dropped(record[key])) : shapes[last]!.keys;
    if (at === undefined) at = shapeIds.get(keys.join('\u0000'));
    if (at === undefined) {
      at = shapes.length;
      shapes.push({ keys, candidates: keys.map((key) => (isPrimitive(record[key]) ? record[key] : NOT_SHARED)) });
      shapeIds.set(keys.join('\u0000'), at);
    } else {
      const { keys: shapeKeys, candidates } = shapes[at]!;
      for (let k = 0; k < shapeKeys.length; k += 1) {
        if (candidates[k] !== NOT_SHARED && record[shapeKeys[k]!] !== candidates[k]) candidates[k] = NOT_SHARED;
      }
    }
    shapeOf[i] = at;
    last = at;
  });
  // Each shape's row columns, listed once: a row then visits only the values it stores.
  const columnsOf = shapes.map(({ keys, candidates }) =>
    keys.flatMap((key, k): RowColumn[] =>
      candidates[k] === NOT_SHARED
        ? [
            {
              key,
              position: k,
              encode: encodeValues && Object.hasOwn(encodeValues, key) ? encodeValues[key] : undefined,
              repeated: repeated?.has(key) ?? false,
            },
          ]
        : [],
    ),
  );
  const rows = new Array<string>(objects.length);
  for (let i = 0; i < objects.length; i += 1) {
    const record = objects[i] as Record<string, unknown>;
    const at = shapeOf[i]!;
    const columns = columnsOf[at]!;
    const row = new Array<unknown>(columns.length + 1);
    row[0] = at;
    for (let c = 0; c < columns.length; c += 1) {
      const column = columns[c]!;
      const value = column.encode ? column.encode(record[column.key], record, i) : record[column.key];
      row[c + 1] = column.repeated ? repeatedIndex(shapes[at]!, column.position, value) : value;
    }
    rows[i] = JSON.stringify(row);
  }
  const header = shapes.map(({ keys, candidates, repeated: columns }) => ({
    keys,
    shared: candidates.flatMap((value, k) => (value === NOT_SHARED ? [] : [[k, value] as const])),
    ...(columns ? { values: [...columns].map(([k, column]) => [k, column.values] as const) } : {}),
  }));
  return jsonArrayBytes(rows, { prefix: `${wrap.prefix}{"shapes":${JSON.stringify(header)},"rows":`, suffix: `}${wrap.suffix}` });
}

/** The objects of a parsed row table, in order (each passed to `restore`); throws on anything that is not one. */
export function decodeRowTable(value: unknown, restore?: (object: Record<string, unknown>) => void): Record<string, unknown>[] {
  if (!isRowTable(value)) throw new Error('not a row table');
  const shapes = value.shapes.map(({ keys, shared, values }) => {
    const sharedAt = new Map(shared.map(([k, v]) => [k, v]));
    const valuesAt = new Map((values ?? []).map(([k, list]) => [k, list]));
    return { keys, sharedAt, valuesAt };
  });
  return value.rows.map((row) => {
    const shape = shapes[row[0] as number];
    if (!shape) throw new Error(`row table: unknown shape ${String(row[0])}`);
    const object: Record<string, unknown> = {};
    let next = 1;
    for (let k = 0; k < shape.keys.length; k += 1) {
      const key = shape.keys[k]!;
      let item = shape.sharedAt.has(k) ? shape.sharedAt.get(k) : row[next++];
      const list = shape.valuesAt.get(k);
      if (list !== undefined && !shape.sharedAt.has(k)) {
        if (!Number.isInteger(item) || (item as number) < 0 || (item as number) >= list.length)
          throw new Error(`row table: a row of shape ${String(row[0])} names value ${String(item)} of "${key}", which has ${list.length}`);
        // Each object gets its own copy: callers may change what they decode.
        item = copyJson(list[item as number]);
      }
      // JSON.parse makes "__proto__" an own property; plain assignment would set the prototype.
      if (key === '__proto__') Object.defineProperty(object, key, { value: item, enumerable: true, writable: true, configurable: true });
      else object[key] = item;
    }
    if (next !== row.length) throw new Error(`row table: a row of shape ${String(row[0])} has ${row.length - 1} values, its shape takes ${next - 1}`);
    restore?.(object);
    return object;
  });
}

/**
 * The index of a repeated column's value in its shape's list (added if new). Primitives are told
 * apart by identity, objects by their JSON text (what would be stored).
 */
function repeatedIndex(shape: Shape, k: number, value: unknown): number {
  const columns = (shape.repeated ??= new Map());
  let column = columns.get(k);
  if (!column) {
    column = { values: [], primitives: new Map(), objects: new Map() };
    columns.set(k, column);
  }
  const isObject = typeof value === 'object' && value !== null;
  if (isObject && column.last && sameJson(column.last.value, value)) return column.last.index;
  const identity = isObject ? JSON.stringify(value) : value;
  const indexes = isObject ? column.objects : column.primitives;
  let index = indexes.get(identity as string);
  if (index === undefined) {
    index = column.values.length;
    column.values.push(value);
    indexes.set(identity as string, index);
  }
  if (isObject) column.last = { value, index };
  return index;
}

export function isRowTable(value: unknown): value is RowTable {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && Array.isArray((value as RowTable).shapes) && Array.isArray((value as RowTable).rows)
  );
}

/** The object's own keys (less those JSON drops) are `keys`, in order; no array is made. */
function hasShape(record: Record<string, unknown>, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in record) {
    if (!Object.hasOwn(record, key) || dropped(record[key])) continue;
    if (keys[i] !== key) return false;
    i += 1;
  }
  return i === keys.length;
}
