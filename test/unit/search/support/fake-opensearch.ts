import type { ClientRequest, IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { Client, Connection } from '@opensearch-project/opensearch';

/**
 * A real OpenSearch client whose connection answers in process: tests see exactly what the
 * adapter sends (method, path, query string, body) and script the cluster's answers. No network.
 */

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: string | undefined;
}

export interface FakeAnswer {
  readonly status: number;
  readonly body?: unknown;
}

export function fakeOpenSearch(answer: (request: RecordedRequest) => FakeAnswer): { client: Client; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];

  class ScriptedConnection extends Connection {
    override request(params: Parameters<Connection['request']>[0], callback: (error: Error | null, response: IncomingMessage | null) => void): ClientRequest {
      const recorded: RecordedRequest = {
        method: String(params.method),
        path: String(params.path),
        query: new URLSearchParams(params.querystring ?? ''),
        body: params.body === undefined || params.body === null ? undefined : String(params.body),
      };
      requests.push(recorded);
      const { status, body } = answer(recorded);
      const payload = body === undefined ? '' : JSON.stringify(body);
      const response = Object.assign(Readable.from(payload === '' ? [] : [Buffer.from(payload)], { objectMode: false }), {
        statusCode: status,
        headers: { 'content-type': 'application/json; charset=UTF-8', 'content-length': String(Buffer.byteLength(payload)) },
      });
      process.nextTick(callback, null, response as unknown as IncomingMessage);
      return { abort: () => undefined } as unknown as ClientRequest;
    }
  }

  // No retries: each scripted answer is seen once, as the adapter got it.
  const client = new Client({ node: 'http://opensearch.test:9200', Connection: ScriptedConnection, maxRetries: 0 });
  return { client, requests };
}

/** The NDJSON lines of a `_bulk` body, parsed. */
export const bulkLines = (body: string | undefined): Record<string, unknown>[] =>
  (body ?? '')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
