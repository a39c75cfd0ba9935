import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChannelCreate, ChannelUpdate, withTargetPolicy } from '../../schemas/billing/channel';
import { BillingRunEnv, ManagementApiEnv, parseEnv } from '../../functions/definitions/environment';
import { ForbiddenTargetError, guardedFetch } from '../../functions/billing/providers/guarded-fetch';
import { classifyAddress, literalTargetProblem } from '../../values/network-address';
import { createWebhookClient } from '../../functions/billing/providers/webhook-client';
import { keyState } from '../../functions/billing/run/deliver-reports';
import { instantRuntime, reportRequest } from '../support/fake-providers/report-request';

describe('webhook targets: address classes', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.0.1', 'link_local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
  ])('IPv4 %s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it.each([
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4001:81b::200e', 'public'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['2001::1', 'reserved'],
    ['100::1', 'reserved'],
    // IPv4 carried in IPv6: judged by the IPv4 address.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:c0a8:101::1', 'private'],
    ['[::1]', 'loopback'],
  ])('IPv6 %s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('anything that is not an address is not public', () => {
    expect(classifyAddress('example.com')).toBe('reserved');
    expect(classifyAddress('1.2.3')).toBe('reserved');
    expect(classifyAddress('::ffff:999.1.1.1')).toBe('reserved');
  });

  it('URL parsing normalises decimal, hex, octal and mapped forms before the check', () => {
    const host = (url: string) => new URL(url).hostname;
    expect(host('http://2130706433/')).toBe('127.0.0.1');
    expect(host('http://0x7f.1/')).toBe('127.0.0.1');
    expect(host('http://0177.0.0.1/')).toBe('127.0.0.1');
    expect(host('http://0xa9fea9fe/')).toBe('169.254.169.254');
    expect(host('http://[::ffff:127.0.0.1]/')).toBe('[::ffff:7f00:1]');
    for (const url of [
      'https://2130706433/',
      'https://0x7f.1/',
      'https://0177.0.0.1/',
      'https://0xa9fea9fe/latest/meta-data',
      'https://[::ffff:127.0.0.1]/',
      'https://[fd00:ec2::254]/',
      'https://10.0.0.5/',
      'https://[fe80::1]/',
    ]) {
      expect(literalTargetProblem(host(url))).toEqual(expect.any(String));
    }
    expect(literalTargetProblem(host('https://0xa9fea9fe/'))).toBe('169.254.169.254 is a metadata address');
    expect(literalTargetProblem('localhost')).toBe('localhost is a loopback host');
    expect(literalTargetProblem('api.localhost')).toBe('api.localhost is a loopback host');
    expect(literalTargetProblem('hooks.example.com')).toBeUndefined();
    expect(literalTargetProblem('93.184.216.34')).toBeUndefined();
    expect(literalTargetProblem('[2606:4700:4700::1111]')).toBeUndefined();
  });
});

describe('webhook targets: the deployment setting', () => {
  const base = {
    RESOURCES_TABLE: 'r',
    BILLING_TABLE: 'b',
    EXPORTS_BUCKET: 'e',
    TOKEN_SIGNING_SECRET_ARN: 'arn:key',
    INGEST_STREAM_NAME: 's',
    DEDUP_TABLE: 'd',
  };
  it('WEBHOOK_ALLOW_PRIVATE_TARGETS is false unless set, read once at start, and anything but true/false/1/0 fails', () => {
    for (const schema of [BillingRunEnv, ManagementApiEnv]) {
      expect(parseEnv(schema, base).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false);
      expect(parseEnv(schema, { ...base, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(true);
      expect(parseEnv(schema, { ...base, WEBHOOK_ALLOW_PRIVATE_TARGETS: '0' }).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false);
      expect(() => parseEnv(schema, { ...base, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_TARGETS/);
    }
  });
});

describe('webhook targets: channel validation under the deployment setting', () => {
  const refusing = withTargetPolicy(ChannelCreate, false);
  const allowing = withTargetPolicy(ChannelCreate, true);
  const body = (url: string) => ({ name: 'n', url });

  it('refuses loopback, private and metadata literals and localhost on `url` unless allowed', () => {
    for (const url of [
      'http://localhost:8080/h',
      'http://127.0.0.1/h',
      'http://[::1]/h',
      'https://10.0.0.1/h',
      'https://169.254.169.254/latest',
      'https://2130706433/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://app.localhost/h',
    ]) {
      const parsed = refusing.safeParse(body(url));
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['url']);
      expect(allowing.safeParse(body(url)).success).toBe(
        url.startsWith('http://') ? ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname) : true,
      );
    }
    expect(refusing.safeParse(body('https://hooks.example.com/usage')).success).toBe(true);
    const update = withTargetPolicy(ChannelUpdate, false);
    expect(update.safeParse({ name: 'renamed' }).success).toBe(true);
    expect(update.safeParse({ url: 'https://192.168.0.10/' }).error?.issues[0]).toMatchObject({
      path: ['url'],
      message: expect.stringMatching(/192\.168\.0\.10 is a private address.*WEBHOOK_ALLOW_PRIVATE_TARGETS/),
    });
  });
});

describe('webhook targets: the guarded transport', () => {
  let server: Server;
  let port: number;
  const received: IncomingMessage[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      received.push(request);
      request.resume();
      if (request.url === '/redirect') response.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      else if (request.url === '/slow')
        return; // never answers (closeAllConnections ends it)
      else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ host: request.headers.host }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    received.length = 0;
  });

  /** A resolver that answers `addresses` for every name and counts its calls. */
  const resolver = (addresses: string[]) => {
    const calls: string[] = [];
    const resolve = (hostname: string, callback: (error: NodeJS.ErrnoException | null, found: { address: string; family: number }[]) => void) => {
      calls.push(hostname);
      callback(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    };
    return { calls, resolve };
  };
  const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };

  it('refuses literal loopback and a name resolving to loopback before anything is sent', async () => {
    const refusing = guardedFetch({ allowPrivateTargets: false }, resolver(['127.0.0.1']).resolve);
    await expect(refusing(`http://127.0.0.1:${port}/h`, post)).rejects.toThrow(ForbiddenTargetError);
    await expect(refusing(`http://localhost:${port}/h`, post)).rejects.toThrow(/localhost is a loopback host/);
    await expect(refusing(`http://receiver.example:${port}/h`, post)).rejects.toThrow(/resolves to 127\.0\.0\.1, a loopback address/);
    // One private address among public ones is enough to refuse the name.
    const mixed = guardedFetch({ allowPrivateTargets: false }, resolver(['93.184.216.34', '10.0.0.7']).resolve);
    await expect(mixed(`http://receiver.example:${port}/h`, post)).rejects.toThrow(/10\.0\.0\.7, a private address/);
    expect(received).toHaveLength(0);
  });

  it('connects to the address it checked: one resolution per connection, the Host header kept', async () => {
    const dns = resolver(['127.0.0.1']);
    const allowing = guardedFetch({ allowPrivateTargets: true }, dns.resolve);
    const response = await allowing(`http://receiver.example:${port}/h`, post);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ host: `receiver.example:${port}` });
    expect(dns.calls).toEqual(['receiver.example']);
    expect(received).toHaveLength(1);
  });

  it("does not follow redirects and ends on the caller's timeout", async () => {
    const allowing = guardedFetch({ allowPrivateTargets: true });
    const redirect = await allowing(`http://127.0.0.1:${port}/redirect`, post);
    expect(redirect.status).toBe(302);
    expect(received).toHaveLength(1);
    await expect(allowing(`http://127.0.0.1:${port}/slow`, { ...post, signal: AbortSignal.timeout(100) })).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('a refused webhook delivery is one failed request with error_code forbidden_target, not retried', async () => {
    const client = createWebhookClient(
      { id: 'ch_1', url: `http://127.0.0.1:${port}/h`, secret: 'whsec_x' },
      { retry: { maxAttempts: 4 }, runtime: instantRuntime() },
    );
    const request = reportRequest({ channel_ids: ['ch_1'], custom_plan: { plan_id: 'p' } }, { destination: 'webhook:ch_1', quantity: 3n });
    const outcome = await client.report(request);
    expect(outcome.success).toBe(false);
    expect(outcome.requests).toEqual([
      expect.objectContaining({
        job_id: request.idempotencyKey,
        success: false,
        status_code: 0,
        error_code: 'forbidden_target',
        error_message: expect.stringMatching(/127\.0\.0\.1 is a loopback address/),
      }),
    ]);
    // Nothing was sent: a later correction carries this version (not an unknown outcome).
    expect(keyState(outcome.requests, request.idempotencyKey)).toBe('not_delivered');
    expect(received).toHaveLength(0);
  });
});
