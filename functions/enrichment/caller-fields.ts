import type { IndexDocument } from '../search/port';
import { IpGeographyReader, type IpGeography } from './ip-geography';
import { UserAgentParser, type UserAgentClient } from './user-agent-client';

/**
 * Enrichment at ingest: the consumer adds, to every API call and action it indexes, where the caller
 * is (`request.geo_ip`, from `request.ip_address`) and what it runs (`request.user_agent`, from the
 * request's User-Agent header, or an action's `request.user_agent_string`). Fields the sender set
 * itself are kept. Events stored before are not rewritten.
 */

export interface CallerEnricher {
  geography(ip: string): IpGeography | undefined;
  client(userAgent: string): UserAgentClient | undefined;
}

/** The enricher of the shipped (or a named) IP database and ua-parser-js; opening reads the database (~8 MB, ~10 ms). */
export function openCallerEnricher(geographyDatabase?: string): CallerEnricher {
  const geography = IpGeographyReader.open(geographyDatabase);
  const agents = new UserAgentParser();
  return { geography: (ip) => geography.lookup(ip), client: (userAgent) => agents.parse(userAgent) };
}

type JsonObject = Record<string, unknown>;

export function withCallerFields(enricher: CallerEnricher, documents: IndexDocument[]): IndexDocument[] {
  return documents.map((document) => {
    const request = document.source['request'];
    if (document.kind !== 'events' || !isObject(request)) return document;
    const added = callerFieldsOf(enricher, request);
    return added === undefined ? document : { ...document, source: { ...document.source, request: { ...request, ...added } } };
  });
}

/** The fields to add to one request, or undefined when there are none. */
export function callerFieldsOf(enricher: CallerEnricher, request: JsonObject): JsonObject | undefined {
  const added: JsonObject = {};
  const ip = request['ip_address'];
  if (request['geo_ip'] === undefined && typeof ip === 'string') {
    const geography = enricher.geography(ip.trim());
    if (geography) added['geo_ip'] = geography;
  }
  const userAgent = userAgentOf(request);
  if (request['user_agent'] === undefined && userAgent !== undefined) {
    const client = enricher.client(userAgent);
    if (client) added['user_agent'] = client;
  }
  return Object.keys(added).length === 0 ? undefined : added;
}

function userAgentOf(request: JsonObject): string | undefined {
  const own = request['user_agent_string'];
  if (typeof own === 'string' && own !== '') return own;
  const headers = request['headers'];
  if (!isObject(headers)) return undefined;
  for (const name in headers) {
    if (name.length === 10 && name.toLowerCase() === 'user-agent') {
      const value = headers[name];
      return typeof value === 'string' && value !== '' ? value : undefined;
    }
  }
  return undefined;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
