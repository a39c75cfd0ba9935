import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadOrCreateSigningKey } from '../../../bin/local/bootstrap';
import type { LocalSearchBackend } from '../../../bin/local/local-search-index';
import { startLocalRuntime, type LocalRuntime, type LocalRuntimeOptions } from '../../../bin/local/runtime';
import { issueManagementToken, type IssueTokenInput } from '../../../functions/management-tokens/token-issuer';
import { TokenStore } from '../../../functions/management-tokens/token-store';
import { managementScopes } from '../../../schemas/scopes';
import { emulatorEndpoints, uniquePrefix } from './emulators';

export interface TestRuntime extends LocalRuntime {
  readonly dataDir: string;
  /** POST JSON (or raw bytes) to the collector with the app's id unless headers say otherwise. */
  collect(path: string, body: unknown, options?: { headers?: Record<string, string>; gzip?: boolean; raw?: Buffer }): Promise<TestResponse>;
  collectorGet(path: string, headers?: Record<string, string>): Promise<TestResponse>;
  management(method: string, path: string, headers?: Record<string, string>, body?: unknown): Promise<TestResponse>;
  countEvents(): Promise<number>;
  /** A recorded management token (only recorded tokens are honoured); defaults: this org and app, every scope. */
  issueToken(input?: Partial<IssueTokenInput>): Promise<string>;
  dispose(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** A local runtime on the shared test emulators, with its own resource names and data directory. */
export async function startTestRuntime(name: string, options: Partial<LocalRuntimeOptions> = {}): Promise<TestRuntime> {
  const dataDir = await mkdtemp(join(tmpdir(), `uab-${name}-`));
  const runtime = await startLocalRuntime({
    dataDir,
    endpoints: emulatorEndpoints(),
    prefix: uniquePrefix(name),
    pollerRetryDelayMs: 20,
    webhookAllowPrivateTargets: true,
    ...options,
  });
  const c = runtime.credentials;
  const scope = { org_id: c.org_id, app_id: c.app_id };
  return {
    ...runtime,
    dataDir,
    async collect(path, body, opts = {}) {
      let payload: Buffer = opts.raw ?? Buffer.from(JSON.stringify(body));
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-service-application-id': c.collector_application_id, ...opts.headers };
      if (opts.gzip) {
        payload = gzipSync(payload);
        headers['content-encoding'] = 'gzip';
      }
      return send(`${c.collector_url}${path}`, { method: 'POST', headers, body: payload });
    },
    collectorGet(path, headers = {}) {
      return send(`${c.collector_url}${path}`, { method: 'GET', headers: { 'x-service-application-id': c.collector_application_id, ...headers } });
    },
    management(method, path, headers = {}, body?: unknown) {
      const init: RequestInit = {
        method,
        headers: { authorization: `Bearer ${c.management_token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      };
      if (body !== undefined) init.body = JSON.stringify(body);
      return send(`${c.management_url}${path}`, init);
    },
    countEvents: () => runtime.index.count(scope, 'events'),
    async issueToken(input = {}) {
      const key = await loadOrCreateSigningKey(dataDir);
      const tokens = new TokenStore(runtime.clients.documents, runtime.names.tables.resources);
      return (await issueManagementToken(tokens, key, { sub: 'test', org_id: c.org_id, app_id: c.app_id, scopes: managementScopes, ...input })).token;
    },
    async dispose() {
      await runtime.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function send(url: string, init: RequestInit): Promise<TestResponse> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

/** An API call as moesif-nodejs sends it. */
export function apiCall(overrides: Record<string, unknown> = {}, at: Date = new Date()): Record<string, unknown> {
  const time = at.toISOString();
  return {
    request: {
      time,
      uri: 'https://api.example.com/v2/items?page=1',
      verb: 'GET',
      headers: { 'user-agent': 'curl/8', authorization: 'Bearer live_abc123' },
      transfer_encoding: 'json',
    },
    response: {
      time: new Date(at.getTime() + 25).toISOString(),
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { ok: true },
      transfer_encoding: 'json',
    },
    user_id: 'user-1',
    company_id: 'company-1',
    ...overrides,
  };
}

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * Both search backends of the service, for suites that run once on each: embedded DuckDB, and the
 * real OpenSearch node of the test run (each runtime with indices of its own).
 */
export function searchBackends(): { name: string; search: () => LocalSearchBackend }[] {
  return [
    { name: 'DuckDB', search: () => ({ backend: 'duckdb' }) },
    {
      name: 'OpenSearch',
      search: () => {
        if (!process.env.OPENSEARCH_URL) throw new Error('OPENSEARCH_URL is missing: the integration global setup starts an OpenSearch node');
        return { backend: 'opensearch', endpoint: process.env.OPENSEARCH_URL, indexPrefix: `it-${randomUUID().slice(0, 8)}-` };
      },
    },
  ];
}

/** The probe's value once `accept` takes it, or its last value when the time runs out (polled every 200 ms). */
export async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
