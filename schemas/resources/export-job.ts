import * as z from 'zod';
import { DateParameter, TimeZoneName } from '../time-zone';

/**
 * Bulk exports (`/~/exports`): a job that reads events, users or companies through the search
 * port and writes them to gzip files in parts, downloaded through pre-signed URLs.
 */

export const ExportKind = z.enum(['events', 'users', 'companies']);
export type ExportKind = z.infer<typeof ExportKind>;

/** `ndjson`: one JSON document per line (its `_id` and `_source`); `csv`: one row per document, a column per field. */
export const ExportFormat = z.enum(['ndjson', 'csv']);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const ExportStatus = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled', 'expired']);
export type ExportStatus = z.infer<typeof ExportStatus>;

export const ExportCreate = z.strictObject({
  kind: ExportKind,
  from: DateParameter.optional().meta({ description: 'Events only: the window start (ISO 8601 or relative such as -7d; default: everything).' }),
  to: DateParameter.optional().meta({ description: 'Events only: the window end, exclusive (default: now at creation).' }),
  time_zone: TimeZoneName.optional(),
  query: z.record(z.string(), z.unknown()).optional().meta({ description: 'A search-DSL query narrowing what is exported (default: everything).' }),
  format: ExportFormat.default('ndjson'),
  fields: z
    .array(z.string().min(1).max(512))
    .min(1)
    .max(500)
    .optional()
    .meta({ description: "CSV only: the columns, as dotted paths; default: every field of the part's documents." }),
});
export type ExportCreate = z.infer<typeof ExportCreate>;

/** A written part, as stored. */
export const ExportPart = z.object({
  number: z.int(),
  key: z.string(),
  rows: z.int(),
  bytes: z.int(),
});
export type ExportPart = z.infer<typeof ExportPart>;

/** A part as the API shows it: a download URL signed for this answer. */
export const ExportPartAnswer = z.object({
  number: z.int(),
  rows: z.int(),
  bytes: z.int().meta({ description: 'Size of the gzip file.' }),
  url: z.string().meta({ description: 'Pre-signed GET URL, valid for url_expires_in seconds (signed again on every GET of the job).' }),
  url_expires_in: z.int(),
});

export const ExportJobAnswer = z.object({
  _id: z.string(),
  kind: ExportKind,
  format: ExportFormat,
  status: ExportStatus,
  from: z.string().nullable(),
  to: z.string().nullable(),
  time_zone: z.string(),
  query: z.record(z.string(), z.unknown()).nullable(),
  fields: z.array(z.string()).nullable(),
  exported: z.int().meta({ description: 'Documents written so far.' }),
  estimated_total: z.int().nullable().meta({ description: 'Documents matching when the export started (null before).' }),
  progress: z.number().nullable().meta({ description: 'exported / estimated_total, at most 1.' }),
  parts: z.array(ExportPartAnswer),
  error: z.string().optional(),
  created_at: z.string(),
  modified_at: z.string(),
  completed_at: z.string().nullable(),
  expires_at: z.string().nullable().meta({ description: 'When the parts are deleted (completed jobs).' }),
});
