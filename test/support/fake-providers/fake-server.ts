import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The shared part of the fake billing providers: a Node HTTP server on 127.0.0.1 that records every
 * request, can fail the next requests on demand, and hands the rest to the provider's own handler.
 */

/** A failure to inject. A timeout holds the response open until the client gives up. */
export type Failure =
  | { kind: 'status'; status: number; message?: string; code?: string; retryAfterSeconds?: number }
  /** `processFirst`: the request takes effect and only the answer is lost (the case idempotency exists for). */
  | { kind: 'timeout'; processFirst?: boolean };

/** `500`, `'timeout'`, or a full Failure. */
export type FailureSpec = number | 'timeout' | Failure;

/** `usage`: only requests that record usage; `any`: every request (token, lookups, …). */
export type FailureScope = 'usage' | 'any';

export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface RecordedRequest extends FakeRequest {
  readonly at: Date;
  /** What the fake answered; undefined while held open (timeout). */
  status?: number;
  /** The failure injected, if any. */
  injected?: Failure['kind'];
}

export interface FakeReply {
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  readonly body?: unknown;
}

export interface FakeServerOptions {
  /** The fake's clock (timestamps it checks, tokens it issues). */
  readonly now?: () => Date;
}

export abstract class FakeProviderServer {
  private server: Server | undefined;
  private readonly pending: { failure: Failure; scope: FailureScope }[] = [];
  private readonly log: RecordedRequest[] = [];
  protected readonly now: () => Date;

  constructor(options: FakeServerOptions = {}) {
    this.now = options.now ?? (() => new Date());
  }

  /** Handles a request that was not failed on purpose. */
  protected abstract handle(request: FakeRequest): FakeReply;
  /** The provider's own error shape for an injected failure. */
  protected abstract errorReply(status: number, message: string, code: string): FakeReply;
  /** Whether the request is one that records usage (the default target of `failNext`). */
  protected abstract isUsageRequest(request: FakeRequest): boolean;
  /** Total usage recorded per subscription (or customer, for Stripe). */
  abstract totals(): Record<string, bigint>;

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.dispatch(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    return this;
  }

  get url(): string {
    if (!this.server) throw new Error('the fake provider is not started');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  /** The next `count` matching requests fail as given (queued after failures already pending). */
  failNext(count: number, spec: FailureSpec, scope: FailureScope = 'usage'): this {
    const failure: Failure = typeof spec === 'number' ? { kind: 'status', status: spec } : spec === 'timeout' ? { kind: 'timeout', processFirst: true } : spec;
    for (let i = 0; i < count; i += 1) this.pending.push({ failure, scope });
    return this;
  }

  /** Every request received, oldest first. */
  requests(): RecordedRequest[] {
    return [...this.log];
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private dispatch(req: IncomingMessage, res: ServerResponse, body: string): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const request: FakeRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body };
    const recorded: RecordedRequest = { ...request, at: this.now() };
    this.log.push(recorded);

    const index = this.pending.findIndex((p) => p.scope === 'any' || this.isUsageRequest(request));
    const failure = index >= 0 ? this.pending.splice(index, 1)[0]!.failure : undefined;
    if (failure) recorded.injected = failure.kind;

    if (failure?.kind === 'timeout') {
      if (failure.processFirst) this.safeHandle(request);
      return; // never answered: the client's timeout ends it, or stop() does
    }
    const reply = failure
      ? withRetryAfter(
          this.errorReply(failure.status, failure.message ?? defaultMessage(failure.status), failure.code ?? `http_${failure.status}`),
          failure.retryAfterSeconds,
        )
      : this.safeHandle(request);
    recorded.status = reply.status;
    const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    res.writeHead(reply.status, { ...(typeof reply.body === 'object' ? { 'content-type': 'application/json' } : {}), ...reply.headers });
    res.end(text);
  }

  private safeHandle(request: FakeRequest): FakeReply {
    try {
      return this.handle(request);
    } catch (error) {
      return this.errorReply(500, `fake provider error: ${error instanceof Error ? error.message : String(error)}`, 'internal_error');
    }
  }
}

function withRetryAfter(reply: FakeReply, seconds: number | undefined): FakeReply {
  return seconds === undefined ? reply : { ...reply, headers: { ...reply.headers, 'retry-after': String(seconds) } };
}

function defaultMessage(status: number): string {
  if (status === 429) return 'Too many requests';
  if (status >= 500) return 'Internal server error';
  return `Request failed with status ${status}`;
}

/** `Basic base64(user:password)` → [user, password], or undefined. */
export function basicCredentials(header: string | undefined): [string, string] | undefined {
  const match = /^Basic (.+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

/** Adds `amount` to `totals[key]`. */
export function addTo(totals: Map<string, bigint>, key: string, amount: bigint): void {
  totals.set(key, (totals.get(key) ?? 0n) + amount);
}

/** Integers written as text (`"-12"`), the way form bodies carry quantities. */
export function parseIntegerText(text: string | null | undefined): bigint | undefined {
  return text !== null && text !== undefined && /^-?\d+$/.test(text) ? BigInt(text) : undefined;
}

export function isForm(request: FakeRequest): boolean {
  return (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}

export function isJson(request: FakeRequest): boolean {
  return (request.headers['content-type'] ?? '').startsWith('application/json');
}

/** A request header as one string. */
export function header(request: FakeRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}
