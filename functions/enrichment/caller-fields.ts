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
    const changed = callerFieldsOf(enricher, request);
    if (changed === undefined) return document;
    const next: JsonObject = { ...request, ...changed };
    // A sender's value with nothing to put in its place goes (undefined would not be stored anyway).
    for (const key of Object.keys(changed)) if (changed[key] === undefined) delete next[key];
    return { ...document, source: { ...document.source, request: next } };
  });
}

/**
 * The fields to set on one request, or undefined when there are none. Both are objects in every
 * document (the OpenSearch templates map them so): a sender's own object is kept; a sender's string
 * `user_agent` is read as the User-Agent and kept as `user_agent_string`; any other value there is
 * replaced (or removed when there is nothing to put in its place).
 */
export function callerFieldsOf(enricher: CallerEnricher, request: JsonObject): JsonObject | undefined {
  const changed: JsonObject = {};
  const ownGeography = request['geo_ip'];
  if (!isObject(ownGeography)) {
    const ip = request['ip_address'];
    const geography = typeof ip === 'string' ? enricher.geography(ip.trim()) : undefined;
    if (geography || ownGeography !== undefined) changed['geo_ip'] = geography;
  }
  const ownClient = request['user_agent'];
  if (!isObject(ownClient)) {
    const sentAsText = typeof ownClient === 'string' && ownClient !== '' ? ownClient : undefined;
    if (sentAsText !== undefined && request['user_agent_string'] === undefined) changed['user_agent_string'] = sentAsText;
    const userAgent = userAgentOf(request) ?? sentAsText;
    const client = userAgent === undefined ? undefined : enricher.client(userAgent);
    if (client || ownClient !== undefined) changed['user_agent'] = client;
  }
  return Object.keys(changed).length === 0 ? undefined : changed;
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
