import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { FetchLike } from './attempts';
import { classifyAddress, literalTargetProblem } from '../../../values/network-address';

/**
 * The transport of webhook deliveries (billing run, channel test): plain node http(s) whose
 * connection goes to the address that was checked. The host name is resolved once per connection by
 * a custom `lookup`; every resolved address must be public (values/network-address.ts) unless the deployment
 * allows private targets, and the socket connects to those same addresses — no second resolution, so
 * no DNS-rebinding window. IP literals (which skip `lookup`) are checked before connecting.
 * Redirects are not followed (a 3xx is an answer like any other). A refused target throws
 * ForbiddenTargetError before anything is sent; the attempt machinery records it as `forbidden_target`.
 */
export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: deliver to loopback/private/link-local addresses (local mode and tests only). */
  readonly allowPrivateTargets: boolean;
}

export class ForbiddenTargetError extends Error {
  override readonly name = 'ForbiddenTargetError';
}

/** Bytes of a receiver's answer kept (classifiers read at most 500 characters of it). */
const MAX_RESPONSE_BYTES = 64 * 1024;

type Resolver = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;
const systemResolver: Resolver = (hostname, callback) => dnsLookup(hostname, { all: true, verbatim: true }, callback);

/** A `lookup` for sockets that refuses non-public addresses (all of them are checked, not just the first). */
export function guardedLookup(policy: TargetPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    const done = callback as (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
    const named = policy.allowPrivateTargets ? undefined : literalTargetProblem(hostname);
    if (named) return done(new ForbiddenTargetError(refusal(hostname, named)), '', 4);
    resolve(hostname, (error, found) => {
      if (error) return done(error, '', 4);
      const family = options.family === 4 || options.family === 6 ? options.family : undefined;
      const addresses = family ? found.filter((a) => a.family === family) : found;
      if (addresses.length === 0) return done(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 4);
      if (!policy.allowPrivateTargets) {
        const bad = addresses.find((a) => classifyAddress(a.address) !== 'public');
        if (bad)
          return done(
            new ForbiddenTargetError(refusal(hostname, `it resolves to ${bad.address}, a ${classifyAddress(bad.address).replace('_', '-')} address`)),
            '',
            4,
          );
      }
      if (options.all) return done(null, addresses);
      return done(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

const refusal = (hostname: string, why: string) =>
  `delivery to ${hostname} refused: ${why}; this deployment only delivers to public addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS)`;

/** One keep-alive agent pair per policy and resolver, reused by every delivery of the process. */
const agents = new Map<string, { http: http.Agent; https: https.Agent }>();

function agentsFor(policy: TargetPolicy, resolve: Resolver | undefined) {
  const cacheKey = String(policy.allowPrivateTargets);
  const cached = resolve ? undefined : agents.get(cacheKey);
  if (cached) return cached;
  const lookup = guardedLookup(policy, resolve);
  const made = { http: new http.Agent({ keepAlive: true, lookup }), https: new https.Agent({ keepAlive: true, lookup }) };
  if (!resolve) agents.set(cacheKey, made);
  return made;
}

/** A FetchLike over node http(s) with the target policy; `resolve` replaces DNS (tests). */
export function guardedFetch(policy: TargetPolicy, resolve?: Resolver): FetchLike {
  const pair = agentsFor(policy, resolve);
  return (url, init) =>
    new Promise<Response>((fulfil, reject) => {
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        return reject(new ForbiddenTargetError(`delivery to ${target.protocol} URLs is not supported`));
      if (!policy.allowPrivateTargets) {
        const problem = literalTargetProblem(target.hostname);
        if (problem) return reject(new ForbiddenTargetError(refusal(target.hostname, problem)));
      }
      const signal = init.signal ?? undefined;
      if (signal?.aborted) return reject(signal.reason);
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const body =
        init.body === undefined || init.body === null
          ? undefined
          : typeof init.body === 'string' || Buffer.isBuffer(init.body)
            ? init.body
            : init.body instanceof Uint8Array
              ? Buffer.from(init.body)
              : undefined;
      if (init.body !== undefined && init.body !== null && body === undefined) return reject(new TypeError('guardedFetch sends string or byte bodies only'));
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const request = (target.protocol === 'https:' ? https : http).request(target, {
        method: init.method ?? 'GET',
        headers,
        agent: target.protocol === 'https:' ? pair.https : pair.http,
      });
      // The signal's reason (a TimeoutError from AbortSignal.timeout) is what the request fails with.
      const abort = () => request.destroy((signal?.reason as Error | undefined) ?? Object.assign(new Error('aborted'), { name: 'AbortError' }));
      signal?.addEventListener('abort', abort, { once: true });
      const settle = () => signal?.removeEventListener('abort', abort);
      request.on('error', (error) => {
        settle();
        reject(error);
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept >= MAX_RESPONSE_BYTES) return;
          chunks.push(chunk);
          kept += chunk.length;
        });
        response.on('error', (error) => {
          settle();
          reject(error);
        });
        response.on('end', () => {
          settle();
          const status = response.statusCode ?? 0;
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value === undefined) continue;
            for (const one of Array.isArray(value) ? value : [value]) answerHeaders.append(name, one);
          }
          const payload = Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES);
          const noBody = status === 204 || status === 205 || status === 304;
          try {
            // Response refuses statuses outside 200–599; a receiver answering with one is treated as a bad gateway.
            fulfil(new Response(noBody ? null : payload, { status: status >= 200 && status <= 599 ? status : 502, headers: answerHeaders }));
          } catch (error) {
            reject(error);
          }
        });
      });
      request.end(body);
    });
}
