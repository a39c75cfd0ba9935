import type { IndexDocument, IndexFailure, IndexOutcome } from '../port';
import { documentId, indexNameFor } from './naming';
import type { BulkOperation } from './request-types';
import { toStoredSource } from './stored-source';

/**
 * The `_bulk` requests for a set of documents and the reading of their answers. Events are sent
 * with `create`, so an `_id` already indexed answers 409 and is left untouched; profiles with
 * `index` and an external version, so a version not above the indexed one answers 409. Both 409s
 * mean "nothing to do": neither written nor failed.
 */

export interface BulkLimits {
  readonly maxBytes: number;
  readonly maxDocuments: number;
  /** Requests sent at once (one when unset; DEFAULT_BULK_LIMITS sends two). */
  readonly inFlight?: number;
}

/**
 * Two requests in flight: while the node indexes one chunk (a write thread per shard request), the
 * next is being built and sent, so a node's second core works too (bench: opensearch, docs/benchmarks.md).
 */
export const DEFAULT_BULK_LIMITS: BulkLimits = { maxBytes: 5 * 1024 * 1024, maxDocuments: 1000, inFlight: 2 };

export interface BulkChunk {
  readonly documents: readonly IndexDocument[];
  /** NDJSON: an action line and a source line per document, newline-terminated. */
  readonly body: string;
}

export function bulkActionLine(prefix: string, document: IndexDocument): BulkOperation {
  const target = { _index: indexNameFor(prefix, document), _id: documentId(document.app_id, document.id) };
  if (document.kind === 'events') return { create: target };
  return { index: { ...target, version: document.version, version_type: 'external' } };
}

/**
 * Splits into requests within both limits; a document larger than maxBytes goes alone. Each request's
 * body is built when it is taken (about 11 ms for 1,000 events), so with two in flight the next one is
 * written while the node indexes the one before instead of every body of a write first.
 */
export function* bulkChunks(prefix: string, documents: readonly IndexDocument[], limits: BulkLimits = DEFAULT_BULK_LIMITS): Generator<BulkChunk> {
  let current: IndexDocument[] = [];
  let lines: string[] = [];
  let bytes = 0;
  for (const document of documents) {
    const pair = `${JSON.stringify(bulkActionLine(prefix, document))}\n${JSON.stringify(toStoredSource(document))}\n`;
    const size = Buffer.byteLength(pair);
    if (current.length >= limits.maxDocuments || (current.length > 0 && bytes + size > limits.maxBytes)) {
      yield { documents: current, body: lines.join('') };
      current = [];
      lines = [];
      bytes = 0;
    }
    current.push(document);
    lines.push(pair);
    bytes += size;
  }
  if (current.length > 0) yield { documents: current, body: lines.join('') };
}

/** One item of a `_bulk` answer, as far as this module reads it. */
export interface BulkResponseItem {
  readonly [action: string]: { readonly status: number; readonly error?: { readonly type?: string; readonly reason?: string | null } } | undefined;
}

const isRetryableStatus = (status: number | undefined): boolean => status === undefined || status === 429 || status >= 500;

/** Reads a `_bulk` answer: items come back in request order. */
export function bulkOutcome(chunk: BulkChunk, items: readonly BulkResponseItem[]): IndexOutcome {
  let written = 0;
  const failures: IndexFailure[] = [];
  chunk.documents.forEach((document, position) => {
    const item = items[position];
    const result = item === undefined ? undefined : Object.values(item)[0];
    if (result === undefined) {
      failures.push({ kind: document.kind, id: document.id, reason: 'no result for this document in the bulk response', retryable: true });
    } else if (result.status === 200 || result.status === 201) {
      written += 1;
    } else if (result.status !== 409) {
      const reason = [result.error?.type, result.error?.reason].filter(Boolean).join(': ') || `status ${result.status}`;
      failures.push({ kind: document.kind, id: document.id, reason, retryable: isRetryableStatus(result.status) });
    }
  });
  return { written, failures };
}

/** The whole request failed: every document of it failed the same way. */
export function failedChunkOutcome(chunk: BulkChunk, error: unknown): IndexOutcome {
  const status = statusOf(error);
  const reason = `bulk request failed${status === undefined ? '' : ` with status ${status}`}: ${error instanceof Error ? error.message : String(error)}`;
  const retryable = isRetryableStatus(status);
  return { written: 0, failures: chunk.documents.map((document) => ({ kind: document.kind, id: document.id, reason, retryable })) };
}

/** The HTTP status of a client error, or undefined when none came back (connection, timeout). */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}
