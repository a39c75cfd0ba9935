/**
 * Local stand-in for API Gateway HTTP APIs: a Node HTTP server that turns each request into the
 * payload v2 event a Lambda receives, calls the same handler, and writes its structured result
 * back, so local mode runs the production request path.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isUtf8 } from 'node:buffer';
import { errorBody, errorResult } from '../../functions/shared/http/error-response';
import { jsonResult } from '../../functions/shared/http/json-result';
import type { HandlerContext, HttpEvent, HttpResult } from '../../functions/shared/http/types';

export interface LocalHttpServer {
  url: string;
  port: number;
  /** Stops accepting connections and resolves once in-flight requests have been answered. */
  close(): Promise<void>;
}

export interface HttpServerOptions {
  /** 0 lets the OS choose. */
  port: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
  handler: (event: HttpEvent, context: HandlerContext) => Promise<HttpResult>;
  /** Raw (still compressed) request body limit; larger requests get a 413. Default 60 MB. */
  maxBodyBytes?: number;
  log?: (line: string) => void;
  /** close() stops waiting for unfinished requests after this long and cuts their connections. Default 30 s. */
  closeTimeoutMs?: number;
  /** Sees every answer before it is written (the contract check's recorder, answer-log.ts). */
  onAnswer?: (method: string, path: string, result: HttpResult) => void;
}

export const DEFAULT_MAX_BODY_BYTES = 60 * 1024 * 1024;

export async function startHttpServer(options: HttpServerOptions): Promise<LocalHttpServer> {
  const log = options.log ?? (() => {});
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const host = options.host ?? '127.0.0.1';
  let inFlight = 0;
  let closing = false;
  const idle: Array<() => void> = [];

  const server = createServer((request, response) => {
    inFlight += 1;
    response.once('close', () => {
      inFlight -= 1;
      // Connections of answered requests would otherwise stay open as keep-alive and hold close() up.
      if (closing) setImmediate(() => server.closeIdleConnections());
      if (inFlight === 0) idle.splice(0).forEach((resolveIdle) => resolveIdle());
    });
    void serve(request, response, options.handler, maxBodyBytes, log, () => closing, options.onAnswer);
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      closing = true;
      const stopped = new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      server.closeIdleConnections();
      const drained = inFlight === 0 ? Promise.resolve() : new Promise<void>((resolveIdle) => idle.push(resolveIdle));
      const timeoutMs = options.closeTimeoutMs ?? 30_000;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolveTimeout) => {
        timer = setTimeout(() => resolveTimeout(true), timeoutMs);
      });
      if (await Promise.race([drained.then(() => false), timedOut])) {
        log(`[http ${url}] ${inFlight} request(s) still running after ${timeoutMs} ms; closing their connections`);
      }
      clearTimeout(timer);
      server.closeAllConnections();
      await stopped;
    })());

  return { url, port, close };
}

async function serve(
  request: IncomingMessage,
  response: ServerResponse,
  handler: (event: HttpEvent, context: HandlerContext) => Promise<HttpResult>,
  maxBodyBytes: number,
  log: (line: string) => void,
  closing: () => boolean,
  onAnswer?: HttpServerOptions['onAnswer'],
): Promise<void> {
  const receivedAt = Date.now();
  let result: HttpResult;
  try {
    const body = await readBody(request, maxBodyBytes);
    if (body === undefined) {
      result = jsonResult(
        413,
        errorBody(413, 'payload_too_large', `The request body is larger than ${maxBodyBytes} bytes`, [
          { field: 'body', reason: `exceeds ${maxBodyBytes} bytes` },
        ]),
      );
    } else {
      // The response closes before it is written only when the caller hung up: their query stops.
      const hungUp = new AbortController();
      response.once('close', () => {
        if (!response.writableFinished) hungUp.abort();
      });
      result = await handler(toEvent(request, body, receivedAt), { disconnected: hungUp.signal });
    }
  } catch (error) {
    // A client that hung up mid-body has no one to answer.
    if (response.destroyed || (request.destroyed && !request.complete)) return;
    result = errorResult(error, (entry) => log(JSON.stringify(entry)));
  }
  if (response.destroyed) return;
  try {
    onAnswer?.(request.method ?? 'GET', (request.url ?? '/').split('?')[0] as string, result);
  } catch (error) {
    // Recording an answer (the contract check) must never keep the caller from getting it.
    log(JSON.stringify({ level: 'warn', message: 'could not record the answer', error: String(error) }));
  }
  // While shutting down, tell the client not to reuse this connection.
  if (closing()) response.setHeader('connection', 'close');
  try {
    writeResult(request, response, result);
  } catch (error) {
    // e.g. a header value Node refuses: still answer, with the one error shape.
    log(JSON.stringify({ level: 'error', message: 'could not write the handler result', error: String(error) }));
    if (!response.headersSent) {
      for (const name of response.getHeaderNames()) response.removeHeader(name);
      writeResult(
        request,
        response,
        errorResult(new Error('unwritable result'), () => {}),
      );
    } else {
      response.destroy();
    }
  }
}

/** The whole body, or undefined once it exceeds the limit (the rest is read and dropped, so the client sees the 413). */
function readBody(request: IncomingMessage, maxBodyBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(request.headers['content-length'] ?? 0) > maxBodyBytes;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    request.once('end', () => resolveBody(tooLarge ? undefined : Buffer.concat(chunks, size)));
    request.once('error', reject);
  });
}

/** The API Gateway HTTP API payload format 2.0 event for one request. */
function toEvent(request: IncomingMessage, body: Buffer, receivedAt: number): HttpEvent {
  const target = request.url ?? '/';
  const queryStart = target.indexOf('?');
  const rawPath = queryStart === -1 ? target : target.slice(0, queryStart);
  const rawQueryString = queryStart === -1 ? '' : target.slice(queryStart + 1);

  // Repeated headers are joined with commas, as API Gateway does; cookies move to `cookies`.
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, values] of Object.entries(request.headersDistinct)) {
    if (values === undefined) continue;
    if (name === 'cookie') {
      cookies = values
        .flatMap((value) => value.split(';'))
        .map((cookie) => cookie.trim())
        .filter((cookie) => cookie !== '');
      continue;
    }
    headers[name] = values.join(',');
  }

  const queryStringParameters: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQueryString)) {
    // As API Gateway does: repeated names joined by commas, every name an own member (`__proto__` and `constructor` included).
    const joined = Object.hasOwn(queryStringParameters, name) ? `${queryStringParameters[name]},${value}` : value;
    Object.defineProperty(queryStringParameters, name, { value: joined, enumerable: true, writable: true, configurable: true });
  }

  const method = request.method ?? 'GET';
  const sourceIp = plainIp(request.socket.remoteAddress ?? '');
  const domainName = headers['host'] ?? 'localhost';
  const requestId = randomUUID();
  const event: HttpEvent = {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: { method, path: rawPath, protocol: `HTTP/${request.httpVersion}`, sourceIp, userAgent: headers['user-agent'] ?? '' },
      requestId,
      routeKey: '$default',
      stage: '$default',
      time: apiGatewayTime(new Date(receivedAt)),
      timeEpoch: receivedAt,
    },
    isBase64Encoded: false,
  };
  if (cookies !== undefined && cookies.length > 0) event.cookies = cookies;
  if (Object.keys(queryStringParameters).length > 0) event.queryStringParameters = queryStringParameters;
  if (body.length > 0) {
    if (isPlainText(headers, body)) {
      event.body = body.toString('utf8');
    } else {
      event.body = body.toString('base64');
      event.isBase64Encoded = true;
    }
  }
  return event;
}

/** Text is passed as text only when it is uncompressed, declared textual (or undeclared) and valid UTF-8. */
function isPlainText(headers: Record<string, string>, body: Buffer): boolean {
  const encoding = (headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') return false;
  const type = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const textual = type === '' || type === 'application/json' || type.endsWith('+json') || type.startsWith('text/');
  return textual && isUtf8(body);
}

function writeResult(request: IncomingMessage, response: ServerResponse, result: HttpResult): void {
  const statusCode = result.statusCode ?? 200;
  for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, String(value));
  if (result.cookies !== undefined && result.cookies.length > 0) response.setHeader('set-cookie', result.cookies);
  const body = result.body === undefined ? Buffer.alloc(0) : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  response.statusCode = statusCode;
  if (request.method === 'HEAD' || statusCode === 204 || statusCode === 304) {
    response.end();
    return;
  }
  response.setHeader('content-length', body.length);
  response.end(body);
}

/** IPv4 clients reach a dual-stack socket as ::ffff:a.b.c.d; API Gateway reports a.b.c.d. */
function plainIp(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
}

/** API Gateway's `requestContext.time` format: 12/Mar/2020:19:03:58 +0000. */
function apiGatewayTime(date: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}
