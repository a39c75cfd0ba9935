import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  DuckDBDataChunk,
  INTEGER,
  TIMESTAMPTZ,
  VARCHAR,
  timestampTZValue,
  type DuckDBConnection,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import type { IndexDocument } from '../port';
import {
  columnsOf,
  createStagingTableSql,
  mergeFromStagingSql,
  quoteIdentifier,
  rowOf,
  stagingTableName,
  storedEventKeysSql,
  addTypedMetadataColumnsSql,
  holdsOtherValue,
  type ColumnType,
  type SearchTable,
} from './tables';
import { METADATA_COLUMN, typedMetadataKeysOf, type TypedMetadataKey } from './search-tables';
import { Int32Columns } from './int32-columns';
import type { TenantNumbers } from './tenant-numbers';
import { DEFAULT_TYPED_METADATA_POLICY, fillTypedMetadata, frequentMetadataKeys, keysWithOtherValues, type TypedMetadataPolicy } from './typed-metadata';

const DUCKDB_TYPES: Record<ColumnType | 'JSON', DuckDBType> = {
  VARCHAR,
  JSON: VARCHAR,
  INTEGER,
  BIGINT,
  DOUBLE,
  BOOLEAN,
  TIMESTAMPTZ,
};

/** The ids of the event write in progress (a temporary table of the writer connection). */
const WRITE_IDS_TABLE = 'write_event_ids';

/** DuckDB's vector size: the most rows one data chunk holds. */
const ROWS_PER_CHUNK = 2048;

/**
 * Writes documents into the search tables through the one writer connection (the caller
 * serialises calls). Events are create-if-absent: the write's ids already stored at the same time
 * are looked up (among the row groups of the write's time span only) and left out, and the rest are
 * appended straight into the table in one transaction. Profiles go through a staging table and one
 * INSERT ... ON CONFLICT that replaces a row only with a newer version.
 */
export class TableWriter {
  /** Per table, the position in `columnsOf` of each stored column, when the file's order differs. */
  private readonly storedOrder = new Map<string, number[]>();
  /**
   * Per events table, its typed metadata keys (typed-metadata.ts), in column order: all of them
   * (written), those filled (read), and those some row holds another value than a string under.
   */
  private readonly typedKeys = new Map<string, { readonly all: readonly string[]; readonly filled: readonly string[]; readonly others: Set<string> }>();
  private readonly appendedSinceReview = new Map<string, number>();

  private readonly int32Columns = new Int32Columns();

  /**
   * `beforeLayoutChange` runs before a write commits rows that queries compiled for the current layout
   * would answer wrongly: the first row holding another value than a string under a typed key, once
   * typedMetadataLayout says so, or a value wider than INTEGER in a column int32ColumnsOf names. It must
   * see that no such query is still running (duckdb-index.ts drains them).
   */
  constructor(
    private readonly connection: DuckDBConnection,
    private readonly tenants: TenantNumbers,
    private readonly policy: TypedMetadataPolicy = DEFAULT_TYPED_METADATA_POLICY,
    private readonly beforeLayoutChange: () => Promise<void> = async () => {},
  ) {}

  /** Run once the table exists: notes its stored columns. */
  async prepare(table: SearchTable): Promise<void> {
    if (table.versioned) return;
    await this.readLayout(table);
    await this.int32Columns.load(this.connection, table);
  }

  /** The table's BIGINT columns holding only INTEGER values, which queries may read as INTEGER. */
  int32ColumnsOf(table: SearchTable): ReadonlySet<string> {
    return this.int32Columns.of(table);
  }

  /** The table's typed metadata keys filled for every row, which queries read from their columns. */
  typedMetadataLayout(table: SearchTable): Map<string, TypedMetadataKey> {
    const typed = this.typedKeys.get(table.name);
    return new Map((typed?.filled ?? []).map((key) => [key, { others: typed?.others.has(key) === true }]));
  }

  /**
   * Finishes filling typed metadata columns a stopped process left unfilled, then promotes the
   * metadata keys now frequent among the events table's most recent rows (typed-metadata.ts).
   * Answers the keys promoted.
   */
  async reviewTypedMetadata(table: SearchTable): Promise<string[]> {
    if (table.versioned) return [];
    this.appendedSinceReview.set(table.name, 0);
    const typed = this.typedKeys.get(table.name) ?? { all: [], filled: [], others: new Set<string>() };
    const unfilled = typed.all.filter((key) => !typed.filled.includes(key));
    if (unfilled.length > 0) await fillTypedMetadata(this.connection, table, unfilled, this.policy.fillRows);
    const keys = await frequentMetadataKeys(this.connection, table, typed.all, this.policy);
    if (keys.length > 0) {
      // Added empty, so the writer fills them for new rows at once; older rows are filled after.
      await inTransaction(this.connection, addTypedMetadataColumnsSql(table, keys));
      await this.readLayout(table);
      await fillTypedMetadata(this.connection, table, keys, this.policy.fillRows);
    }
    if (unfilled.length > 0 || keys.length > 0) await this.readLayout(table);
    return keys;
  }

  /** Reads the table's stored columns: its typed metadata keys, and their order where it is not `columnsOf`'s. */
  private async readLayout(table: SearchTable): Promise<void> {
    const stored = await this.connection.runAndReadAll(
      `SELECT column_name, comment FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = $1 ORDER BY column_index`,
      [table.name],
    );
    const columns = stored.getRows().map(([name, comment]) => ({ name: String(name), comment: typeof comment === 'string' ? comment : null }));
    const keys = typedMetadataKeysOf(columns);
    const expected = columnsOf(table, keys.all).map(({ name }) => name);
    const order = columns.map(({ name }) => expected.indexOf(name));
    if (order.length !== expected.length || order.includes(-1)) throw new Error(`the ${table.name} table's columns are not ${expected.join(', ')}`);
    this.typedKeys.set(table.name, { ...keys, others: new Set(await keysWithOtherValues(this.connection, table, keys.all)) });
    if (order.some((position, i) => position !== i)) this.storedOrder.set(table.name, order);
    else this.storedOrder.delete(table.name);
  }

  /** Writes one kind's documents; answers how many rows were inserted or replaced. */
  async write(table: SearchTable, documents: readonly IndexDocument[]): Promise<number> {
    const unique = uniqueByKey(table, documents);
    await this.tenants.register(this.connection, unique);
    return table.versioned ? this.mergeProfiles(table, unique) : this.appendEvents(table, unique);
  }

  private async appendEvents(table: SearchTable, documents: readonly IndexDocument[]): Promise<number> {
    const order = this.storedOrder.get(table.name);
    const typedKeys = this.typedKeys.get(table.name)?.all ?? [];
    // The rows (JSON of each document, typed hot columns: most of a write's JavaScript) are built
    // while DuckDB looks for the stored ids on its own threads.
    const { stored, built: rows } = await this.storedEventKeysWhile(table, documents, () =>
      documents.map((document) => rowInStoredOrder(table, document, this.tenants.numberOf(document), typedKeys, order)),
    );
    const fresh =
      stored.size === 0
        ? rows
        : rows.filter((_, i) => {
            const document = documents[i] as IndexDocument;
            return !stored.has(timedKeyOf(document.org_id, document.app_id, document.id, Date.parse(document.time)));
          });
    if (fresh.length === 0) return 0;
    await this.noteOtherValues(table, documents);
    if (this.int32Columns.widenFor(table, documents)) await this.beforeLayoutChange();
    await inTransaction(this.connection, () => this.append(table.name, null, this.typesOf(table, typedKeys, order), fresh));
    const appended = (this.appendedSinceReview.get(table.name) ?? 0) + fresh.length;
    this.appendedSinceReview.set(table.name, appended);
    // After the commit, so the write is stored whatever the review meets; a retry finds it stored.
    if (appended >= this.policy.reviewEveryRows) await this.reviewTypedMetadata(table);
    return fresh.length;
  }

  /** Before rows holding another value than a string under a typed key are committed, says so to queries (once per key). */
  private async noteOtherValues(table: SearchTable, documents: readonly IndexDocument[]): Promise<void> {
    const typed = this.typedKeys.get(table.name);
    if (typed === undefined) return;
    const fresh = typed.all.filter((key) => !typed.others.has(key) && documents.some((document) => holdsOtherValue(document.source[METADATA_COLUMN], key)));
    if (fresh.length === 0) return;
    for (const key of fresh) typed.others.add(key);
    await this.beforeLayoutChange();
  }

  /**
   * The keys (with time) of the documents' events already stored, read from the row groups of their
   * time span only, and what `build` answers, run while the query runs. The write's ids go through a
   * temporary table: appending 20 k ids costs a few milliseconds, one list parameter of them about a
   * hundred.
   */
  private async storedEventKeysWhile<T>(table: SearchTable, documents: readonly IndexDocument[], build: () => T): Promise<{ stored: Set<string>; built: T }> {
    return this.withTemporaryTable(`CREATE OR REPLACE TEMP TABLE ${WRITE_IDS_TABLE} (id VARCHAR NOT NULL)`, WRITE_IDS_TABLE, async () => {
      await this.append(
        WRITE_IDS_TABLE,
        'temp',
        [VARCHAR],
        documents.map(({ id }) => [id]),
      );
      const query = this.connection.runAndReadAll(storedEventKeysSql(table, WRITE_IDS_TABLE), timeSpanOf(documents));
      let built: T;
      try {
        built = build();
      } finally {
        // Settled before anything else runs on the connection, even when `build` threw.
        await query.catch(() => undefined);
      }
      const found = await query;
      return { stored: new Set(found.getRows().map(([org, app, id, millis]) => timedKeyOf(String(org), String(app), String(id), Number(millis)))), built };
    });
  }

  private async mergeProfiles(table: SearchTable, documents: readonly IndexDocument[]): Promise<number> {
    return this.withTemporaryTable(createStagingTableSql(table), stagingTableName(table), async () => {
      await this.append(
        stagingTableName(table),
        'temp',
        this.typesOf(table, []),
        documents.map((document) => rowOf(table, document, this.tenants.numberOf(document))),
      );
      const result = await this.connection.runAndReadAll(mergeFromStagingSql(table));
      return Number(result.getRows()[0]?.[0] ?? 0);
    });
  }

  /**
   * Runs `work` with the temporary table `name` made for it by `createSql` (a CREATE OR REPLACE, so
   * one a failed drop left behind is replaced) and dropped after; only the writer connection sees it.
   * Emptying one kept table instead would hold memory for ever: DuckDB keeps the blocks of rows
   * deleted from an in-memory table (20 k event ids held 0.86 MB more per write).
   */
  private async withTemporaryTable<T>(createSql: string, name: string, work: () => Promise<T>): Promise<T> {
    await this.connection.run(createSql);
    try {
      return await work();
    } finally {
      await this.connection.run(`DROP TABLE IF EXISTS temp.${quoteIdentifier(name)}`);
    }
  }

  /** DuckDB types of the table's columns, in stored order. */
  private typesOf(table: SearchTable, typedKeys: readonly string[], order?: readonly number[]): DuckDBType[] {
    const types = columnsOf(table, typedKeys).map(({ type }) => DUCKDB_TYPES[type]);
    // `prepare` checked that `order` holds every position of columnsOf once.
    return order === undefined ? types : order.map((position) => types[position] ?? VARCHAR);
  }

  /** Appends rows in data chunks of DuckDB's vector size. */
  private async append(name: string, catalog: string | null, types: readonly DuckDBType[], rows: readonly DuckDBValue[][]): Promise<void> {
    const appender = await this.connection.createAppender(name, null, catalog);
    try {
      for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) {
        const slice = rows.slice(start, start + ROWS_PER_CHUNK);
        const chunk = DuckDBDataChunk.create(types, slice.length);
        chunk.setRows(slice);
        appender.appendDataChunk(chunk);
      }
    } finally {
      appender.closeSync();
    }
  }
}

/** A document's row with its values in the table's stored column order (`order`: stored position → `columnsOf` position). */
function rowInStoredOrder(
  table: SearchTable,
  document: IndexDocument,
  tenantNumber: number,
  typedKeys: readonly string[],
  order: readonly number[] | undefined,
): DuckDBValue[] {
  const row = rowOf(table, document, tenantNumber, typedKeys);
  return order === undefined ? row : order.map((position) => row[position] ?? null);
}

/**
 * Runs `work` (statements, or a function) in one transaction on the connection: all of it takes
 * effect, or none.
 */
export async function inTransaction(connection: DuckDBConnection, work: readonly string[] | (() => Promise<void>)): Promise<void> {
  await connection.run('BEGIN TRANSACTION');
  try {
    if (typeof work === 'function') await work();
    else for (const statement of work) await connection.run(statement);
  } catch (error) {
    await connection.run('ROLLBACK');
    throw error;
  }
  // A commit that fails is rolled back by DuckDB itself; its error is the one to report.
  await connection.run('COMMIT');
}

const timedKeyOf = (org: string, app: string, id: string, millis: number) => `${org}\u0000${app}\u0000${id}\u0000${millis}`;

/**
 * One document per key, as one write must not insert an event twice or touch a profile twice: for
 * events the first occurrence (later ones are duplicates), for profiles the highest version.
 */
function uniqueByKey(table: SearchTable, documents: readonly IndexDocument[]): IndexDocument[] {
  const byKey = new Map<string, IndexDocument>();
  for (const document of documents) {
    const key = `${document.org_id}\u0000${document.app_id}\u0000${document.id}`;
    const kept = byKey.get(key);
    if (kept === undefined || (table.versioned && (document.version ?? 0) > (kept.version ?? 0))) byKey.set(key, document);
  }
  return [...byKey.values()];
}

/** The earliest and latest time of the documents (checked by documentProblem), as query parameters. */
function timeSpanOf(documents: readonly IndexDocument[]): Record<'from' | 'to', DuckDBValue> {
  let from = Infinity;
  let to = -Infinity;
  for (const document of documents) {
    const millis = Date.parse(document.time);
    if (millis < from) from = millis;
    if (millis > to) to = millis;
  }
  return { from: timestampTZValue(BigInt(from) * 1000n), to: timestampTZValue(BigInt(to) * 1000n) };
}
