import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { gzipSync } from 'node:zlib';
import { startHttpServer, type LocalHttpServer } from '../../bin/local/http-server';
import { jsonResult } from '../../functions/shared/http/json-result';
import type { HttpEvent, HttpResult } from '../../functions/shared/http/types';

// Loopback only, but a real socket: hence here and not among the unit tests.

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http rather than fetch, so repeated headers reach the server as separate lines. */
function send(url: string, options: { method?: string; path?: string; headers?: OutgoingHttpHeaders; body?: Buffer | string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${options.path ?? '/'}`, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const json = (response: RawResponse): any => JSON.parse(response.body.toString('utf8'));

describe('local HTTP server: requests as API Gateway HTTP API v2 events', () => {
  let server: LocalHttpServer;
  let handler: (event: HttpEvent) => Promise<HttpResult>;

  beforeAll(async () => {
    server = await startHttpServer({ port: 0, handler: (event) => handler(event), maxBodyBytes: 1024 });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    handler = async (event) => jsonResult(200, event);
  });

  it('listens on an OS-chosen loopback port', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('translates path, query, headers, cookies and the request context', async () => {
    const before = Date.now();
    const response = await send(server.url, {
      path: '/v1/search/~/events?from=-1d&tag=a&tag=b&q=a%20b',
      headers: { 'X-Multi': ['one', 'two'], Cookie: 'session=abc; theme=dark', 'User-Agent': 'moesif-nodejs/3.9' },
    });
    expect(response.status).toBe(200);
    const event = json(response);
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: '$default',
      rawPath: '/v1/search/~/events',
      rawQueryString: 'from=-1d&tag=a&tag=b&q=a%20b',
      queryStringParameters: { from: '-1d', tag: 'a,b', q: 'a b' },
      cookies: ['session=abc', 'theme=dark'],
      isBase64Encoded: false,
      requestContext: {
        routeKey: '$default',
        stage: '$default',
        http: { method: 'GET', path: '/v1/search/~/events', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'moesif-nodejs/3.9' },
      },
    });
    expect(event.headers['x-multi']).toBe('one,two');
    expect(event.headers['user-agent']).toBe('moesif-nodejs/3.9');
    expect(event.headers.cookie).toBeUndefined();
    expect(event.body).toBeUndefined();
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(event.requestContext.timeEpoch).toBeGreaterThanOrEqual(before);
    expect(event.requestContext.timeEpoch).toBeLessThanOrEqual(Date.now());
    expect(event.requestContext.time).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/);
  });

  it('omits query parameters and cookies when there are none', async () => {
    const event = json(await send(server.url, { path: '/health/probe' }));
    expect(event.rawQueryString).toBe('');
    expect(event.queryStringParameters).toBeUndefined();
    expect(event.cookies).toBeUndefined();
  });

  it('passes a UTF-8 JSON body as text', async () => {
    const body = JSON.stringify({ name: 'Zoë', emoji: '🚀' });
    const event = json(await send(server.url, { method: 'POST', path: '/v1/events', headers: { 'content-type': 'application/json' }, body }));
    expect(event.isBase64Encoded).toBe(false);
    expect(event.body).toBe(body);
  });

  it('passes a compressed body as base64', async () => {
    const gzipped = gzipSync(JSON.stringify([{ a: 1 }]));
    const event = json(await send(server.url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipped }));
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body, 'base64')).toEqual(gzipped);
    expect(event.headers['content-encoding']).toBe('gzip');
  });

  it('passes binary and invalid UTF-8 bodies as base64', async () => {
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x7b]);
    for (const contentType of ['application/octet-stream', 'application/json']) {
      const event = json(await send(server.url, { method: 'POST', headers: { 'content-type': contentType }, body: bytes }));
      expect(event.isBase64Encoded).toBe(true);
      expect(Buffer.from(event.body, 'base64')).toEqual(bytes);
    }
  });

  it('writes status, headers, cookies and a base64 body back as bytes', async () => {
    const bytes = Buffer.from([0x00, 0x01, 0xfe, 0xff]);
    handler = async () => ({
      statusCode: 201,
      headers: { 'content-type': 'application/octet-stream', 'x-config-etag': 'abc', 'x-count': 3 },
      cookies: ['a=1; Path=/', 'b=2'],
      body: bytes.toString('base64'),
      isBase64Encoded: true,
    });
    const response = await send(server.url, { method: 'POST', body: '{}' });
    expect(response.status).toBe(201);
    expect(response.headers['x-config-etag']).toBe('abc');
    expect(response.headers['x-count']).toBe('3');
    expect(response.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2']);
    expect(response.body).toEqual(bytes);
  });

  it('answers 413 in the service error shape when the raw body is over the limit', async () => {
    let called = false;
    handler = async (event) => {
      called = true;
      return jsonResult(200, event);
    };
    const response = await send(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.alloc(4096, 0x20) });
    expect(response.status).toBe(413);
    expect(json(response)).toEqual({
      error: {
        status: 413,
        code: 'payload_too_large',
        message: expect.stringContaining('1024 bytes'),
        details: [{ field: 'body', reason: 'exceeds 1024 bytes' }],
      },
    });
    expect(called).toBe(false);
  });

  it('answers 500 in the service error shape when the handler throws', async () => {
    handler = async () => {
      throw new Error('secret internals');
    };
    const response = await send(server.url);
    expect(response.status).toBe(500);
    expect(json(response).error).toEqual(expect.objectContaining({ status: 500, code: 'internal_error' }));
    expect(response.body.toString()).not.toContain('secret internals');
  });
});

describe('local HTTP server: shutdown', () => {
  it('finishes in-flight requests, then refuses new connections', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const requestStarted = new Promise<void>((resolve) => (started = resolve));
    const server = await startHttpServer({
      port: 0,
      handler: async () => {
        started();
        await released;
        return jsonResult(200, { done: true });
      },
    });

    // fetch asks for keep-alive; the answer must tell it not to reuse the connection.
    const inFlight = fetch(server.url, { method: 'POST', body: '{}' });
    await requestStarted;
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(false);

    release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toEqual({ done: true });
    await closing;
    await expect(send(server.url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('does not wait for idle keep-alive connections', async () => {
    const server = await startHttpServer({ port: 0, handler: async () => jsonResult(200, { ok: true }) });
    // fetch keeps its connection open for reuse.
    const response = await fetch(`${server.url}/health/probe`);
    expect(response.status).toBe(200);
    await response.json();
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
