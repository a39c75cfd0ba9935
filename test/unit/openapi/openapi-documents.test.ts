import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type * as z from 'zod';
import { MANAGEMENT_PATH_PREFIXES, routes, type ApiName } from '../../../functions/definitions/routes';
import { routeSchemas } from '../../../functions/openapi/route-schemas';
import { OPENAPI_FILES, renderOpenApiDocuments, undocumentedRouteOperations } from '../../../functions/openapi/documents';
import { managementScopes } from '../../../schemas/scopes';
import { parseSearchRequest } from '../../../functions/search/dsl';
import { ValidationError } from '../../../functions/shared/errors';

type Json = Record<string, any>;
const root = resolve(__dirname, '../../..');
const apis: ApiName[] = ['collector', 'management'];
const rendered = renderOpenApiDocuments();
const committed = Object.fromEntries(apis.map((api) => [api, readFileSync(resolve(root, OPENAPI_FILES[api]), 'utf8')])) as Record<ApiName, string>;
const documents = Object.fromEntries(apis.map((api) => [api, JSON.parse(rendered[api]) as Json])) as Record<ApiName, Json>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operationsOf(document: Json): { path: string; method: string; op: Json }[] {
  return Object.entries(document['paths'] as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => ({ path, method, op: op as Json })),
  );
}

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => refsIn(item, found));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') found.push(child);
      else refsIn(child, found);
    }
  }
  return found;
}

function resolvePointer(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (typeof node === 'object' && node !== null ? (node as Json)[part] : undefined), document);
}

describe('committed OpenAPI documents', () => {
  it.each(apis)('openapi/%s.json is what the generator writes now (else run npm run openapi)', (api) => {
    expect(committed[api]).toBe(rendered[api]);
  });
});

describe('route schema registry', () => {
  it('has an entry for the operation of every route of the route table', () => {
    expect(undocumentedRouteOperations()).toEqual([]);
  });

  it('has no entry for an operation no route names (a renamed operation leaves none behind)', () => {
    const operations = new Set(routes.map((route) => route.operation));
    expect(Object.keys(routeSchemas).filter((name) => !operations.has(name))).toEqual([]);
  });

  it("lists every route of the table in its API's document, management routes also under /v1", () => {
    for (const route of routes) {
      const prefixes = route.api === 'management' && !route.exactPath ? MANAGEMENT_PATH_PREFIXES : [''];
      for (const prefix of prefixes) {
        expect(documents[route.api]['paths'][prefix + route.path]?.[route.method.toLowerCase()]).toBeDefined();
      }
    }
  });

  it('documents only the members of a search body that the search DSL parser accepts', () => {
    const body = routeSchemas['searchEvents']!.body as z.ZodObject;
    const members = Object.keys(body.shape);
    expect(members).toEqual(expect.arrayContaining(['query', 'size', 'sort', 'search_after', 'aggs', 'post_filter']));
    const unknownReason = (member: string): string | undefined => {
      try {
        parseSearchRequest({ [member]: '__probe__' }, 'events');
        return undefined;
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return error.details.find((d) => d.field === member && /unknown parameter|not supported/.test(d.reason))?.reason;
      }
    };
    for (const member of members) expect([member, unknownReason(member)]).toEqual([member, undefined]);
    // The probe can tell: a member the DSL does not know is reported as such.
    expect(unknownReason('suggest')).toBeDefined();
  });
});

describe.each(apis)('the %s document', (api) => {
  const document = documents[api];
  const operations = operationsOf(document);

  it('states the shape of before_id wherever a list takes it, as the API checks it (a generated client sends only ids it accepts)', () => {
    // Billing reports, the balance ledger and an email's sends log page by positions of their own (a report id or
    // cursor, a sequence_id, a record key in base64url).
    const lists = operationsOf(documents.management).filter(
      ({ path, op }) => !path.includes('/billing/reports') && !path.endsWith('/sends') && (op['parameters'] ?? []).some((p: Json) => p['name'] === 'before_id'),
    );
    expect(lists.length).toBeGreaterThan(20);
    for (const { path, method, op } of lists) {
      const parameter = (op['parameters'] as Json[]).find((p) => p['name'] === 'before_id')!;
      expect([method, path, parameter['schema']['pattern']]).toEqual([method, path, '^[A-Za-z0-9_-]{1,128}$']);
    }
  });

  it('is OpenAPI 3.1 with info, paths and components', () => {
    expect(document['openapi']).toMatch(/^3\.1\.\d+$/);
    expect(document['info']).toEqual(expect.objectContaining({ title: expect.any(String), version: expect.any(String) }));
    expect(operations.length).toBeGreaterThan(0);
  });

  it('resolves every $ref', () => {
    const unresolved = [...new Set(refsIn(document))].filter((ref) => resolvePointer(document, ref) === undefined);
    expect(unresolved).toEqual([]);
  });

  it('has unique operationIds', () => {
    const ids = operations.map(({ op }) => op['operationId']);
    expect(ids.every((id) => typeof id === 'string' && /^[A-Za-z0-9_]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares every path parameter of every path, and no other', () => {
    for (const { path, op } of operations) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = ((op['parameters'] ?? []) as Json[]).filter((p) => p['in'] === 'path');
      expect([path, declared.map((p) => p['name']).sort()]).toEqual([path, inPath]);
      for (const parameter of declared) expect(parameter['required']).toBe(true);
    }
  });

  it('gives every operation a success answer and the error shape for each error status', () => {
    for (const { op } of operations) {
      const statuses = Object.keys(op['responses']);
      // The CORS preflight is answered before content negotiation and authentication: 204 only.
      if (op['summary'] === 'CORS preflight') {
        expect(statuses).toEqual(['204']);
        continue;
      }
      expect(statuses.some((s) => /^2\d\d$/.test(s) || s === 'default')).toBe(true);
      for (const status of statuses.filter((s) => /^[45]\d\d$/.test(s))) {
        const answer = op['responses'][status] as Json;
        // The service's error shape, except where an operation names its own (the RFC 6749 token URL).
        if (answer['$ref'])
          expect((resolvePointer(document, answer['$ref']) as Json)['content']['application/json']['schema']).toEqual({ $ref: '#/components/schemas/Error' });
        else expect(answer['content']['application/json']['schema']).toBeDefined();
      }
      expect(statuses).toContain('406');
    }
    expect(document['components']['schemas']['Error']['required']).toEqual(['error']);
  });

  it('names a defined security scheme (and, for tokens, a defined scope) on every operation', () => {
    const schemes = document['components']['securitySchemes'] as Json;
    for (const { path, op } of operations) {
      expect(Array.isArray(op['security'])).toBe(true);
      for (const requirement of op['security'] as Json[]) {
        for (const [name, scopes] of Object.entries(requirement)) {
          expect([path, name in schemes]).toEqual([path, true]);
          const defined = schemes[name]['flows']?.['password']?.['scopes'] ?? {};
          for (const scope of scopes as string[]) expect(defined).toHaveProperty([scope]);
        }
      }
    }
  });
});

describe('security schemes', () => {
  it('collector: the application id header', () => {
    expect(documents.collector['components']['securitySchemes']['applicationId']).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Service-Application-Id' }),
    );
    expect(documents.collector['paths']['/v1/events']['post']['security']).toEqual([{ applicationId: [] }]);
    expect(documents.collector['paths']['/health/probe']['get']['security']).toEqual([]);
  });

  it("management: OAuth2 password flow at the org token URL with every scope, and each route's scope", () => {
    const password = documents.management['components']['securitySchemes']['oauth2']['flows']['password'];
    expect(password['tokenUrl']).toBe('/v1/{orgId}/oauth/access_tokens');
    expect(Object.keys(password['scopes']).sort()).toEqual([...managementScopes].sort());
    expect(documents.management['paths']['/search/~/search/events']['post']['security']).toEqual([{ oauth2: ['read:events'] }]);
    expect(documents.management['paths']['/v1/search/~/users/{id}']['delete']['security']).toEqual([{ oauth2: ['delete:users'] }]);
    expect(documents.management['paths']['/openapi.json']['get']['security']).toEqual([]);
  });
});

describe('operations', () => {
  it('documents bodies, query parameters and answers from the zod schemas', () => {
    const batch = documents.collector['paths']['/v1/events/batch']['post'];
    expect(batch['requestBody']['content']['application/json']['schema']).toEqual({ type: 'array', items: { $ref: '#/components/schemas/ApiCallEvent' } });
    expect(batch['responses']['201']['content']['application/json']['schema']).toEqual({ $ref: '#/components/schemas/Accepted' });
    expect(Object.keys(batch['responses'])).toEqual(['201', '400', '401', '406', '413', '415', '503']);
    expect(documents.collector['components']['schemas']['ApiCallEvent']['required']).toEqual(['request']);

    const search = documents.management['paths']['/search/~/search/events']['post'];
    expect(search['parameters'].map((p: Json) => p['name'])).toEqual(['from', 'to', 'time_zone', 'voided']);
    expect(search['requestBody']['required']).toBe(false);
    expect(Object.keys(search['responses'])).toEqual(['200', '400', '401', '402', '406', '410', '413', '415', '429', '503', '504']);
  });

  it('gives an operation serving two routes distinct operationIds', () => {
    const ids = ['/search/~/count/events', '/search/~/search/count', '/v1/search/~/count/events'].map(
      (path) => documents.management['paths'][path]['post']['operationId'],
    );
    expect(new Set(ids).size).toBe(3);
  });
});
