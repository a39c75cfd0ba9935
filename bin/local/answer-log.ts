import { appendFileSync } from 'node:fs';
import type { HttpResult } from '../../functions/shared/http/types';

/** One answer of a local server, as the contract check reads it (functions/openapi/answer-check.ts). */
export interface RecordedAnswer {
  readonly api: 'collector' | 'management';
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly allow?: string;
  readonly contentType?: string;
  /** The JSON body; absent when there is none, when it is not JSON, or when it is larger than BODY_LIMIT. */
  readonly body?: unknown;
  readonly bodyTooLarge?: boolean;
}

const BODY_LIMIT = 512 * 1024;

/**
 * With OPENAPI_ANSWER_LOG set, every answer of the local servers is appended to that file as one
 * JSON line, so a run's traffic can be checked against the committed OpenAPI documents (the
 * integration tests do, in their global teardown). Off otherwise: nothing is recorded.
 */
export function answerRecorder(
  api: RecordedAnswer['api'],
  file = process.env.OPENAPI_ANSWER_LOG,
): ((method: string, path: string, result: HttpResult) => void) | undefined {
  if (!file) return undefined;
  return (method, path, result) => {
    const headers = (result.headers ?? {}) as Record<string, string | number | boolean>;
    const contentType = headers['content-type'] === undefined ? undefined : String(headers['content-type']);
    const text = typeof result.body === 'string' && !result.isBase64Encoded ? result.body : undefined;
    const entry: Record<string, unknown> = { api, method, path, status: result.statusCode ?? 200 };
    if (headers['allow'] !== undefined) entry.allow = String(headers['allow']);
    if (contentType !== undefined) entry.contentType = contentType;
    if (text !== undefined && text !== '' && contentType?.includes('json')) {
      if (text.length > BODY_LIMIT) entry.bodyTooLarge = true;
      else entry.body = JSON.parse(text);
    }
    appendFileSync(file, `${JSON.stringify(entry)}\n`);
  };
}
