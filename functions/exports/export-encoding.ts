import { once } from 'node:events';
import { promisify } from 'node:util';
import { createGzip, gzip, type Gzip } from 'node:zlib';
import type { ExportFormat } from '../../schemas/resources/export-job';
import type { SearchHit } from '../search/port';

/**
 * A part's file: the documents as gzip NDJSON (`{"_id": …, "_source": …}` per line) or gzip CSV
 * (RFC 4180: a header row, then a row per document; nested objects flattened to dotted columns,
 * arrays as JSON text). Each page's text goes to a gzip stream as it is added, which compresses it
 * on the thread pool while the next page is read; a CSV part without `fields` waits for its last
 * row to know its columns.
 */

const gzipOffLoop = promisify(gzip);

/** A part being filled page by page: its size so far (uncompressed), then its file. */
export class PartBuilder {
  private readonly rows: Record<string, unknown>[] = [];
  private compressor: { stream: Gzip; chunks: Buffer[]; ended: Promise<unknown> } | undefined;
  /** The CSV columns when `fields` fixes them (then rows are written as they come). */
  private readonly columns: readonly string[] | undefined;
  rowCount = 0;
  textBytes = 0;

  constructor(
    private readonly format: ExportFormat,
    fields: readonly string[] | null,
  ) {
    this.columns = format === 'csv' && fields ? csvColumns([], fields) : undefined;
  }

  add(hits: readonly SearchHit[]): void {
    if (hits.length === 0) return;
    let text = '';
    for (const hit of hits) {
      if (this.format === 'ndjson') {
        text += `${JSON.stringify({ _id: hit._id, _source: hit._source ?? {} })}\n`;
      } else {
        // Rows without a prototype: a column named `constructor` or `__proto__` is data like any other.
        const row = Object.assign(Object.create(null) as Record<string, unknown>, flatten(hit._source ?? {}), { _id: hit._id });
        if (this.columns) text += csvLine(row, this.columns);
        else {
          this.rows.push(row);
          for (const value of Object.values(row)) this.textBytes += csvCell(value).length + 1;
        }
      }
    }
    if (this.format === 'ndjson' || this.columns) {
      if (this.rowCount === 0 && this.columns) text = csvLine(null, this.columns) + text;
      this.write(text);
    }
    this.rowCount += hits.length;
  }

  async file(): Promise<Buffer> {
    if (this.format === 'csv' && !this.columns) return gzipOffLoop(Buffer.from(csvText(this.rows, null), 'utf8'), { level: 1 });
    if (!this.compressor) return gzipOffLoop(Buffer.alloc(0), { level: 1 });
    this.compressor.stream.end();
    await this.compressor.ended;
    return Buffer.concat(this.compressor.chunks);
  }

  private write(text: string): void {
    if (!this.compressor) {
      const stream = createGzip({ level: 1 });
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // Rejects on the stream's error; handled here so it surfaces where file() awaits it.
      const ended = once(stream, 'end');
      ended.catch(() => undefined);
      this.compressor = { stream, chunks, ended };
    }
    this.textBytes += Buffer.byteLength(text);
    this.compressor.stream.write(text);
  }
}

/** One CSV line of `row` in `columns` (the header line when `row` is null). */
function csvLine(row: Record<string, unknown> | null, columns: readonly string[]): string {
  return `${columns.map((column) => csvCell(row === null ? column : row[column])).join(',')}\r\n`;
}

/** The columns of a CSV part: those asked for, or every leaf path of its documents, `_id` first, the rest sorted. */
export function csvColumns(rows: readonly Record<string, unknown>[], fields: readonly string[] | null): string[] {
  if (fields) return ['_id', ...fields.filter((field) => field !== '_id')];
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  seen.delete('_id');
  return ['_id', ...[...seen].sort()];
}

function csvText(rows: readonly Record<string, unknown>[], fields: readonly string[] | null): string {
  const columns = csvColumns(rows, fields);
  return csvLine(null, columns) + rows.map((row) => csvLine(row, columns)).join('');
}

/** Leaf values by dotted path; arrays stay whole (a column holds their JSON). */
export function flatten(
  value: Record<string, unknown>,
  prefix = '',
  into: Record<string, unknown> = Object.create(null) as Record<string, unknown>,
): Record<string, unknown> {
  for (const [key, child] of Object.entries(value)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (child !== null && typeof child === 'object' && !Array.isArray(child)) flatten(child as Record<string, unknown>, path, into);
    else into[path] = child;
  }
  return into;
}

/** A CSV cell: empty for a missing value, text quoted when it holds a comma, quote or line break. */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
