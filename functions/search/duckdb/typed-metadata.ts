import type { DuckDBConnection } from '@duckdb/node-api';
import { METADATA_COLUMN, TYPED_METADATA_KEY, otherMetadataColumn, type SearchTable } from './search-tables';
import { quoteIdentifier, typedMetadataFillSql, typedMetadataFilledSql } from './tables';

/**
 * Frequent metadata keys become typed columns, chosen from the data: no schema for the user to
 * write. A filter on `metadata.<key>` otherwise parses every row's metadata JSON: at 10 M events
 * `plan = enterprise` took 1.5 s that way, ~10 ms on a VARCHAR column (bench: search).
 *
 * A key's column holds its value where that is a string; a companion JSON column holds any other
 * value there (number, boolean, null, array, object), tested as before. So every row answers exactly
 * as from the metadata JSON: a string from the first column, another value from the second, neither
 * means no value (query-compiler.ts, anyValue); and a filter never reads the metadata JSON itself.
 *
 * Keys are reviewed when the index opens and after every `reviewEveryRows` appended rows, from the
 * most recent rows. A promoted key's columns are added empty (the writer fills them for new rows
 * from then on), the stored rows are filled in parts of `fillRows` (one UPDATE of 10 M rows ran
 * out of a 1 GB budget), and only then is the column marked filled, which is what lets queries read
 * it; a process stopped in between finishes the filling when it next opens the file. Keys are never
 * demoted: their columns cost little once the key stops appearing. Events only: profiles are few,
 * and their filters are fast on the JSON.
 */
export interface TypedMetadataPolicy {
  /** The most recent rows read when choosing. */
  readonly sampleRows: number;
  /** Below this many rows every key stays in the JSON: too little data to choose from, or to be slow. */
  readonly minRows: number;
  /** A key is promoted when present in at least this share of the sampled rows... */
  readonly minPresentShare: number;
  /** ...and a string in at least this share of the rows holding it. */
  readonly minStringShare: number;
  /** Typed keys a table can have at most. */
  readonly maxKeys: number;
  /** Rows appended between two reviews. */
  readonly reviewEveryRows: number;
  /** Rows filled per statement when a key is promoted: a statement's updates are held in memory until it commits. */
  readonly fillRows: number;
}

export const DEFAULT_TYPED_METADATA_POLICY: TypedMetadataPolicy = {
  // json_each over 20 k rows' metadata: ~80 ms, once per half a million rows written.
  sampleRows: 20_000,
  minRows: 50_000,
  minPresentShare: 0.1,
  minStringShare: 0.9,
  maxKeys: 16,
  reviewEveryRows: 500_000,
  fillRows: 500_000,
};

/** How often each metadata key occurs in a sample, and as a string. */
export interface KeyCounts {
  readonly key: string;
  readonly present: number;
  readonly strings: number;
}

/**
 * The counts of each metadata key among the table's most recent rows (by rowid: rows are appended
 * in arrival order), with the number of rows sampled. `$rows` is the sample's size.
 */
export function sampleMetadataKeysSql(table: SearchTable): string {
  const name = quoteIdentifier(table.name);
  const metadata = quoteIdentifier(METADATA_COLUMN);
  return (
    `WITH recent AS (SELECT ${metadata} AS m FROM ${name} WHERE rowid > (SELECT max(rowid) FROM ${name}) - $rows) ` +
    `SELECT (SELECT count(*) FROM recent) AS sampled, e.key AS key, count(*) AS present, count(*) FILTER (WHERE e.type = 'VARCHAR') AS strings ` +
    `FROM recent, json_each(recent.m) AS e WHERE json_type(recent.m) = 'OBJECT' GROUP BY e.key`
  );
}

/**
 * The keys to promote now, most frequent first, within the policy's share thresholds and key budget.
 * Only names TYPED_METADATA_KEY allows; ties by name, so the choice is the same on every run.
 */
export function keysToPromote(counts: readonly KeyCounts[], sampled: number, typed: readonly string[], policy: TypedMetadataPolicy): string[] {
  const room = policy.maxKeys - typed.length;
  if (room <= 0 || sampled === 0) return [];
  const already = new Set(typed);
  return counts
    .filter(({ key, present, strings }) => {
      if (already.has(key) || !TYPED_METADATA_KEY.test(key) || present === 0) return false;
      return present / sampled >= policy.minPresentShare && strings / present >= policy.minStringShare;
    })
    .sort((a, b) => b.present - a.present || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, room)
    .map(({ key }) => key);
}

/** The keys to promote now, from a sample of the most recent rows; none while the table is small. */
export async function frequentMetadataKeys(
  connection: DuckDBConnection,
  table: SearchTable,
  typed: readonly string[],
  policy: TypedMetadataPolicy,
): Promise<string[]> {
  if (typed.length >= policy.maxKeys) return [];
  const total = await connection.runAndReadAll(`SELECT count(*) FROM ${quoteIdentifier(table.name)}`);
  if (Number(total.getRows()[0]?.[0] ?? 0) < policy.minRows) return [];
  const sample = await connection.runAndReadAll(sampleMetadataKeysSql(table), { rows: policy.sampleRows });
  const rows = sample.getRows();
  const counts = rows.map(([, key, present, strings]) => ({ key: String(key), present: Number(present), strings: Number(strings) }));
  return keysToPromote(counts, Number(rows[0]?.[0] ?? 0), typed, policy);
}

/**
 * Fills the keys' columns of every row stored, part by part, then marks each filled. Rows appended
 * meanwhile already have their values (the writer fills every typed column); filling is idempotent.
 */
export async function fillTypedMetadata(connection: DuckDBConnection, table: SearchTable, keys: readonly string[], rowsPerPart: number): Promise<void> {
  const last = await connection.runAndReadAll(`SELECT max(rowid) FROM ${quoteIdentifier(table.name)}`);
  const end = Number(last.getRows()[0]?.[0] ?? -1) + 1;
  const fill = typedMetadataFillSql(table, keys);
  for (let from = 0; from < end; from += rowsPerPart) await connection.run(fill, { from, to: Math.min(from + rowsPerPart, end) });
  for (const key of keys) await connection.run(typedMetadataFilledSql(table, key));
}

/** The keys some stored row holds another value than a string under (a scan of their mostly-NULL columns of other values). */
export async function keysWithOtherValues(connection: DuckDBConnection, table: SearchTable, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const found = keys.map((key) => `bool_or(${quoteIdentifier(otherMetadataColumn(key))} IS NOT NULL)`);
  const result = await connection.runAndReadAll(`SELECT ${found.join(', ')} FROM ${quoteIdentifier(table.name)}`);
  const row = result.getRows()[0] ?? [];
  return keys.filter((_, i) => row[i] === true);
}
