import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { ExportFormat } from '../../schemas/resources/export-job';
import type { SearchHit } from '../search/port';

/**
 * A part's file: the documents as gzip NDJSON (`{"_id": …, "_source": …}` per line) or gzip CSV
 * (RFC 4180: a header row, then a row per document; nested objects flattened to dotted columns,
 * arrays as JSON text). Compressed on the thread pool, so the next page can be read meanwhile.
 */

const gzipOffLoop = promisify(gzip);

/** A part being filled page by page: its size so far (uncompressed), then its file. */
export class PartBuilder {
  private readonly lines: string[] = [];
  private readonly rows: Record<string, unknown>[] = [];
  rowCount = 0;
  textBytes = 0;

  constructor(private readonly format: ExportFormat, private readonly fields: readonly string[] | null) {}

  add(hits: readonly SearchHit[]): void {
    for (const hit of hits) {
      if (this.format === 'ndjson') {
        const line = JSON.stringify({ _id: hit._id, _source: hit._source ?? {} });
        this.lines.push(line);
        this.textBytes += line.length + 1;
      } else {
        // Rows without a prototype: a column named `constructor` or `__proto__` is data like any other.
        const row = Object.assign(Object.create(null) as Record<string, unknown>, flatten(hit._source ?? {}), { _id: hit._id });
        this.rows.push(row);
        for (const value of Object.values(row)) this.textBytes += csvCell(value).length + 1;
      }
      this.rowCount += 1;
    }
  }

  async file(): Promise<Buffer> {
    const text = this.format === 'ndjson' ? (this.lines.length === 0 ? '' : `${this.lines.join('\n')}\n`) : csvText(this.rows, this.fields);
    return gzipOffLoop(Buffer.from(text, 'utf8'), { level: 1 });
  }
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
  const lines = [columns.map(csvCell).join(',')];
  for (const row of rows) lines.push(columns.map((column) => csvCell(row[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Leaf values by dotted path; arrays stay whole (a column holds their JSON). */
export function flatten(value: Record<string, unknown>, prefix = '', into: Record<string, unknown> = Object.create(null) as Record<string, unknown>): Record<string, unknown> {
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
