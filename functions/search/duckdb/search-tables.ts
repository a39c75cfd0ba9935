import { VOIDED_AT_FIELD, type IndexKind, type SearchContext } from '../port';

/**
 * The DuckDB tables behind the search port: one per kind, keyed by (org_id, app_id, id), with the
 * whole `_source` in `doc`, the fields dashboards filter, group and sum on copied into typed
 * "hot" columns, and `_source.metadata` copied into its own JSON column. The search DSL compiler
 * maps a field path to its hot column through `path`, reads `metadata.*` paths from the metadata
 * column (a filter then parses the small metadata object, not the whole document: ~10x faster on
 * 1M events), and falls back to JSON extraction from `doc` for every other path.
 *
 * Plain data without DuckDB imports: field typing (fields.ts) reads it in the search Lambda too,
 * where the DuckDB package is not installed.
 */

export type ColumnType = 'VARCHAR' | 'INTEGER' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMPTZ';

export interface HotColumn {
  readonly name: string;
  readonly type: ColumnType;
  /** Where the value comes from in `_source`. */
  readonly path: readonly string[];
}

export interface SearchTable {
  readonly kind: IndexKind;
  readonly name: string;
  /** Profiles keep the indexed version so an older one can never overwrite a newer one. */
  readonly versioned: boolean;
  readonly hotColumns: readonly HotColumn[];
}

/** The column holding the row's tenant number (tenant-numbers.ts), which scans filter on. */
export const TENANT_NUMBER_COLUMN = 'tenant_number';

/** The JSON column holding `_source.metadata` (NULL when the document has none). */
export const METADATA_COLUMN = 'metadata';

/**
 * Metadata keys that may get typed columns (typed-metadata.ts): plain names, so a key is also a
 * JSON path member and a column name without escaping.
 */
export const TYPED_METADATA_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The column holding a typed metadata key's value where it is a string (NULL otherwise). */
export const typedMetadataColumn = (key: string): string => `${METADATA_COLUMN}.${key}`;

/** The column holding the JSON of any other value under the key (number, boolean, null, array, object); NULL otherwise. */
export const otherMetadataColumn = (key: string): string => `${METADATA_COLUMN}.${key}:other`;

/**
 * A typed metadata key as queries read it: `others` when some row holds another value than a string
 * under it, so its column of other values must be read too.
 */
export interface TypedMetadataKey {
  readonly others: boolean;
}

/**
 * A search context with what the DuckDB compiler knows of the table's layout: the tenant's number in
 * it (tenant-numbers.ts), its typed metadata keys, filled for every row, and its BIGINT columns holding
 * only values that fit an INTEGER (int32-columns.ts).
 */
export interface TableContext extends SearchContext {
  /** The scope's tenant number, NO_TENANT (0) when the tenant has no rows. */
  readonly tenantNumber: number;
  readonly typedMetadata?: ReadonlyMap<string, TypedMetadataKey>;
  readonly int32Columns?: ReadonlySet<string>;
}

/** The comment on a typed metadata key's column once every row's value is in it. */
export const TYPED_METADATA_FILLED = 'typed metadata: filled';

/**
 * The typed metadata keys of a table, read from its columns (name, comment) in order: every key
 * with both columns (the writer fills them), and those filled for every row (queries read them).
 */
export function typedMetadataKeysOf(columns: readonly { name: string; comment: string | null }[]): { all: string[]; filled: string[] } {
  const names = new Set(columns.map(({ name }) => name));
  const prefix = `${METADATA_COLUMN}.`;
  const typed = columns.filter(
    ({ name }) => name.startsWith(prefix) && TYPED_METADATA_KEY.test(name.slice(prefix.length)) && names.has(otherMetadataColumn(name.slice(prefix.length))),
  );
  return {
    all: typed.map(({ name }) => name.slice(prefix.length)),
    filled: typed.filter(({ comment }) => comment === TYPED_METADATA_FILLED).map(({ name }) => name.slice(prefix.length)),
  };
}

const hot = (name: string, type: ColumnType, path: string = name): HotColumn => ({ name, type, path: path.split('.') });

export const SEARCH_TABLES: Readonly<Record<IndexKind, SearchTable>> = {
  events: {
    kind: 'events',
    name: 'events',
    versioned: false,
    hotColumns: [
      hot('event_type', 'VARCHAR'),
      hot('verb', 'VARCHAR', 'request.verb'),
      hot('status', 'INTEGER', 'response.status'),
      hot('route', 'VARCHAR', 'request.route'),
      hot('uri', 'VARCHAR', 'request.uri'),
      hot('action_name', 'VARCHAR'),
      hot('user_id', 'VARCHAR'),
      hot('company_id', 'VARCHAR'),
      hot('subscription_id', 'VARCHAR'),
      hot('session_token', 'VARCHAR'),
      hot('weight', 'INTEGER'),
      // Whole milliseconds, as OpenSearch's `long` (durations of two millisecond times): DuckDB takes
      // percentiles of integers in about 0.6x the time of doubles.
      hot('duration_ms', 'BIGINT'),
      hot('is_late', 'BOOLEAN'),
      hot('received_at', 'TIMESTAMPTZ'),
      // Set only by a void (event-voids), NULL for every live event: reads test it first (query/search.ts).
      hot(VOIDED_AT_FIELD, 'TIMESTAMPTZ'),
    ],
  },
  users: {
    kind: 'users',
    name: 'users',
    versioned: true,
    hotColumns: [hot('user_id', 'VARCHAR'), hot('company_id', 'VARCHAR'), hot('email', 'VARCHAR', 'metadata.email')],
  },
  companies: {
    kind: 'companies',
    name: 'companies',
    versioned: true,
    hotColumns: [hot('company_id', 'VARCHAR'), hot('company_domain', 'VARCHAR')],
  },
  subscriptions: {
    kind: 'subscriptions',
    name: 'subscriptions',
    versioned: true,
    hotColumns: [hot('subscription_id', 'VARCHAR'), hot('company_id', 'VARCHAR'), hot('status', 'VARCHAR')],
  },
};
