import * as z from 'zod';
import { MANAGEMENT_PATH_PREFIXES, type ApiName, type RouteDefinition } from '../definitions/routes';
import type { ErrorStatus, RouteSchema } from './route-schemas';
import { managementScopes } from '../../schemas/scopes';
import { ErrorResponse } from './response-schemas';
import { addResourceLinks } from './resource-links';
import { STORED_JSON_SCHEMA } from '../../schemas/stored-json';

/**
 * Builds an API's OpenAPI 3.1 document from the route table and the registry of route schemas.
 * Pure and deterministic: bin/openapi.ts writes its result to openapi/<api>.json, and a unit test
 * rebuilds it in memory to catch a committed document that no longer matches the code.
 * Not part of any Lambda: they serve the committed JSON.
 */

type Json = Record<string, unknown>;

const SCHEMA_REF = '#/components/schemas/';
const ERROR_RESPONSES: Record<ErrorStatus | 405, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Bad request: a field or parameter is invalid; details name each field and why.' },
  401: { name: 'Unauthorized', description: 'Credentials missing or incorrect, or the token lacks the scope.' },
  402: { name: 'PaymentRequired', description: "The organisation's subscription is not active." },
  404: { name: 'NotFound', description: 'No such resource (or no such endpoint).' },
  405: { name: 'MethodNotAllowed', description: 'The path exists but not with this method; the Allow header lists the methods it has.' },
  406: { name: 'NotAcceptable', description: 'The Accept header rules out application/json.' },
  409: {
    name: 'Conflict',
    description: 'The request conflicts with what is stored (a name taken, a limit reached, a field that cannot change); details name the field.',
  },
  410: { name: 'Gone', description: 'The resource was deleted.' },
  413: { name: 'PayloadTooLarge', description: 'The body is larger than the limit after decompression.' },
  415: { name: 'UnsupportedMediaType', description: 'The Content-Encoding is not one of gzip, deflate, br.' },
  429: {
    name: 'TooManyRequests',
    description:
      'Rate limit hit (500 queries per calendar minute per organisation), or, for queries, as many running at once as the organisation may (10); retry after the Retry-After seconds.',
  },
  503: { name: 'ServiceUnavailable', description: 'A dependency did not take the request; nothing was half-done: retry.' },
  504: { name: 'QueryTimeout', description: 'The query ran past its time budget (25 s by default) and was stopped; narrow its time range or filters.' },
};

/**
 * Operations of the route table without a registry entry. The documents still list them (path,
 * parameters, security) with an undocumented answer; the completeness test fails until they have one.
 */
export function undocumentedOperations(routes: readonly RouteDefinition[], schemas: BuildOptions['schemas']): string[] {
  return [...new Set(routes.filter((route) => !schemas[route.operation]).map((route) => `${route.lambda}.${route.operation}`))];
}

const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'Done; no body' };

export interface BuildOptions {
  readonly api: ApiName;
  readonly routes: readonly RouteDefinition[];
  readonly schemas: Readonly<Record<string, RouteSchema>>;
}

/** A route as one path of the document (management routes appear as written and under /v1). */
interface PathForm {
  readonly route: RouteDefinition;
  readonly path: string;
  readonly operationId: string;
}

export function buildOpenApiDocument(options: BuildOptions): Json {
  const routes = options.routes.filter((route) => route.api === options.api);

  const forms = pathForms(routes);
  const { pieces: input, components: inputComponents } = generate('input', requestPieces(routes, options.schemas));
  const { pieces: output, components: outputComponents } = generate('output', responsePieces(routes, options.schemas));
  const components = mergeComponents(inputComponents, outputComponents, output);
  // Free-form members refer to it by hand (schemas/stored-json.ts): zod has no schema of its own for it.
  if (JSON.stringify([input, components]).includes(`${SCHEMA_REF}StoredJson`)) components['StoredJson'] = STORED_JSON_SCHEMA;

  const paths: Record<string, Json> = {};
  for (const form of forms) {
    const entry = options.schemas[form.route.operation];
    (paths[form.path] ??= {})[form.route.method.toLowerCase()] = entry
      ? operation(options.api, form, entry, input, output)
      : undocumentedOperation(options.api, form);
  }
  for (const [path, item] of Object.entries(paths)) item['options'] = preflightOperation(path, item);
  addResourceLinks(paths, components);

  return {
    openapi: '3.1.0',
    info: {
      title: options.api === 'collector' ? 'Collector API' : 'Management API',
      version: '1',
      description:
        options.api === 'collector'
          ? `Write-only ingestion of API calls, actions, user and company profiles and subscriptions. ${EVERY_PATH}`
          : `Search, count and manage the data of the token's organisation and app (\`~\` in a path means them). Every path is also served under /v1. ${EVERY_PATH}`,
    },
    servers: [{ url: '/', description: "The API's own base address" }],
    tags: [...new Set(forms.map((form) => tagOf(form.route)))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      responses: Object.fromEntries(
        Object.values(ERROR_RESPONSES).map(({ name, description }) => [
          name,
          { description, content: { 'application/json': { schema: { $ref: `${SCHEMA_REF}Error` } } } },
        ]),
      ),
      securitySchemes: securitySchemes(options.api),
    },
  };
}

/** What holds for every path, beside its operations. */
const EVERY_PATH =
  'Every error has the shape of components.schemas.Error. A method a path does not list is answered 405 (components.responses.MethodNotAllowed) with an Allow header naming the methods it has. Every path answers the CORS preflight (OPTIONS).';

/** The CORS preflight of a path: 204 naming its methods (the shared HTTP handler answers it before authentication). */
function preflightOperation(path: string, item: Json): Json {
  const methods = Object.keys(item).map((method) => method.toUpperCase());
  const header = (description: string) => ({ description, schema: { type: 'string' } });
  return {
    operationId: `preflight${path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: 'CORS preflight',
    description: `Answers a browser's preflight: the methods of this path (${[...methods, 'OPTIONS'].join(', ')}), the request headers it may send, and how long to remember it.`,
    tags: ['cors'],
    ...(path.includes('{') ? { parameters: pathParameters(path, undefined) } : {}),
    security: [],
    responses: {
      '204': {
        description: 'The preflight answer; no body.',
        headers: {
          'Access-Control-Allow-Origin': header('Always `*`.'),
          'Access-Control-Allow-Methods': header('The methods of this path, and OPTIONS.'),
          'Access-Control-Allow-Headers': header('The headers the request asked for, or the ones the API reads.'),
          'Access-Control-Max-Age': header('Seconds the browser may reuse this answer (86400).'),
        },
      },
    },
  };
}

function pathForms(routes: readonly RouteDefinition[]): PathForm[] {
  const seen = new Map<string, number>();
  const forms: PathForm[] = [];
  for (const route of routes) {
    // One operation can serve several routes (e.g. both spellings of the event count).
    const n = (seen.get(route.operation) ?? 0) + 1;
    seen.set(route.operation, n);
    // Dotted operation names (`cohorts.list`) become camelCase ids (`cohortsList`) for code generators.
    const name = route.operation.replace(/\.(\w)/g, (_m, c: string) => c.toUpperCase());
    const base = n === 1 ? name : `${name}${n}`;
    const prefixes = route.api === 'management' && !route.exactPath ? MANAGEMENT_PATH_PREFIXES : [''];
    for (const prefix of prefixes) {
      forms.push({ route, path: prefix + route.path, operationId: prefix ? `${base}_${prefix.replace(/\W/g, '')}` : base });
    }
  }
  return forms;
}

// ── JSON Schema generation ──

type Pieces = Record<string, z.ZodType>;
const bodyKey = (op: string) => `${op}:body`;
const queryKey = (op: string) => `${op}:query`;
const responseKey = (op: string) => `${op}:response`;
const ownErrorKey = (op: string) => `${op}:error`;

function requestPieces(routes: readonly RouteDefinition[], schemas: BuildOptions['schemas']): Pieces {
  const pieces: Pieces = {};
  for (const { operation } of routes) {
    const entry = schemas[operation];
    if (entry?.body) pieces[bodyKey(operation)] = entry.body;
    if (entry?.query) pieces[queryKey(operation)] = entry.query;
  }
  return pieces;
}

function responsePieces(routes: readonly RouteDefinition[], schemas: BuildOptions['schemas']): Pieces {
  const pieces: Pieces = { error: ErrorResponse };
  for (const { operation } of routes) {
    const entry = schemas[operation];
    if (entry?.response) pieces[responseKey(operation)] = entry.response;
    if (entry?.ownErrors) pieces[ownErrorKey(operation)] = entry.ownErrors.schema;
  }
  return pieces;
}

/**
 * One zod → JSON Schema (draft 2020-12) pass over every piece of one direction: requests as callers
 * may send them (`input`: before defaults and transforms), answers as the service sends them.
 * Schemas named with `.meta({ id })` become components; everything else is inlined.
 */
function generate(io: 'input' | 'output', pieces: Pieces): { pieces: Record<string, Json>; components: Record<string, Json> } {
  const wrapper = z.object(pieces);
  const json = z.toJSONSchema(wrapper, {
    target: 'draft-2020-12',
    io,
    // Custom checks and transforms have no JSON Schema form: documented as "any value" (the
    // schema's description says what is expected); the service's parser still enforces them.
    unrepresentable: 'any',
    cycles: 'ref',
    reused: 'inline',
  }) as Json;
  const rewritten = rewriteRefs(json, (ref) => ref.replace(/^#\/\$defs\//, SCHEMA_REF)) as Json;
  return {
    pieces: (rewritten['properties'] ?? {}) as Record<string, Json>,
    components: (rewritten['$defs'] ?? {}) as Record<string, Json>,
  };
}

/**
 * A component named in both directions may read differently (defaults are optional going in and
 * always present coming out): the answer's form is then renamed `<Name>Response`.
 */
function mergeComponents(input: Record<string, Json>, output: Record<string, Json>, outputPieces: Record<string, Json>): Record<string, Json> {
  const renamed = new Map<string, string>();
  for (const [name, schema] of Object.entries(output)) {
    if (name in input && JSON.stringify(input[name]) !== JSON.stringify(schema)) renamed.set(name, `${name}Response`);
  }
  const retarget = (value: unknown) =>
    rewriteRefs(value, (ref) => {
      const name = ref.startsWith(SCHEMA_REF) ? ref.slice(SCHEMA_REF.length) : undefined;
      return name !== undefined && renamed.has(name) ? SCHEMA_REF + renamed.get(name)! : ref;
    });
  for (const [key, piece] of Object.entries(outputPieces)) outputPieces[key] = retarget(piece) as Json;
  const merged: Record<string, Json> = { ...input };
  for (const [name, schema] of Object.entries(output)) merged[renamed.get(name) ?? name] = retarget(schema) as Json;
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
}

function rewriteRefs(value: unknown, rewrite: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rewrite));
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$schema') continue;
    out[key] = key === '$ref' && typeof child === 'string' ? rewrite(child) : rewriteRefs(child, rewrite);
  }
  return out;
}

// ── operations ──

function operation(api: ApiName, form: PathForm, entry: RouteSchema, input: Record<string, Json>, output: Record<string, Json>): Json {
  const { route } = form;
  const op: Json = {
    operationId: form.operationId,
    summary: route.summary,
    description: entry.description,
    tags: [tagOf(route)],
  };
  const parameters = [...pathParameters(form.path, entry), ...queryParameters(input[queryKey(route.operation)])];
  if (parameters.length > 0) op['parameters'] = parameters;
  const body = input[bodyKey(route.operation)];
  if (body) {
    const mediaTypes = entry.bodyMediaTypes ?? ['application/json'];
    op['requestBody'] = { required: !entry.bodyOptional, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: body }])) };
  }

  const response = output[responseKey(route.operation)];
  const responses: Json = {
    [String(entry.responseStatus)]: {
      description: SUCCESS_DESCRIPTIONS[entry.responseStatus] ?? 'OK',
      ...(entry.responseHeaders
        ? {
            headers: Object.fromEntries(
              Object.entries(entry.responseHeaders).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
            ),
          }
        : {}),
      ...(response ? { content: { 'application/json': { schema: response } } } : {}),
    },
  };
  if (entry.alsoStatus) {
    const success = responses[String(entry.responseStatus)] as Json;
    responses[String(entry.alsoStatus.status)] = { ...success, description: entry.alsoStatus.description };
  }
  const own = new Set<number>(entry.ownErrors?.statuses ?? []);
  for (const status of errorStatuses(route, entry)) {
    if (!own.has(status)) responses[String(status)] = { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };
  }
  for (const status of own) {
    responses[String(status)] = {
      description: entry.ownErrors!.description,
      content: { 'application/json': { schema: output[ownErrorKey(route.operation)] } },
    };
  }
  op['responses'] = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  op['security'] = security(api, route);
  return op;
}

function undocumentedOperation(api: ApiName, form: PathForm): Json {
  const { route } = form;
  const parameters = pathParameters(form.path, undefined);
  const responses: Json = { default: { description: 'Not documented yet: this operation has no entry in functions/definitions/route-schemas.ts.' } };
  for (const status of errorStatuses(route, undefined)) responses[String(status)] = { $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` };
  return {
    operationId: form.operationId,
    summary: route.summary,
    tags: [tagOf(route)],
    ...(parameters.length > 0 ? { parameters } : {}),
    responses,
    security: security(api, route),
  };
}

function errorStatuses(route: RouteDefinition, entry: RouteSchema | undefined): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>([406, ...(entry?.errors ?? [])]);
  if (entry?.body) [400, 413, 415].forEach((s) => statuses.add(s as ErrorStatus));
  if (entry?.query) statuses.add(400);
  if (route.auth.kind === 'collector-app') statuses.add(401);
  // The management authenticator: token and scope (401), organisation status (402), rate limit (429).
  if (route.auth.kind === 'management-token' || route.auth.kind === 'shared-view-token' || route.auth.kind === 'customer-token')
    [401, 402, 429].forEach((s) => statuses.add(s as ErrorStatus));
  // A deleted app answers 410 on every route of its tokens.
  if (route.auth.kind === 'management-token') statuses.add(410);
  // Queries run within a time budget (functions/search/query-budget.ts).
  if (entry?.runsQuery) statuses.add(504);
  return [...statuses].sort((a, b) => a - b);
}

function pathParameters(path: string, entry: RouteSchema | undefined): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(entry?.params?.[name!] ? { description: entry.params[name!] } : {}),
  }));
}

function queryParameters(query: Json | undefined): Json[] {
  if (!query) return [];
  const properties = (query['properties'] ?? {}) as Record<string, Json>;
  const required = new Set((query['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return { name, in: 'query', required: required.has(name), schema: rest, ...(description ? { description } : {}) };
  });
}

function tagOf(route: RouteDefinition): string {
  if (route.lambda === 'search') return 'search';
  const segment = route.path.split('/').find((s) => s !== '' && s !== 'v1' && s !== '~' && !s.startsWith('{'));
  return segment ?? 'service';
}

// ── security ──

function securitySchemes(api: ApiName): Json {
  if (api === 'collector') {
    return {
      applicationId: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Service-Application-Id',
        description: "The app's collector application id (X-Moesif-Application-Id is accepted as an alias).",
      },
    };
  }
  return {
    oauth2: {
      type: 'oauth2',
      description: 'Send the access token as `Authorization: Bearer <token>`. Each operation needs the scope it lists.',
      flows: {
        password: {
          tokenUrl: '/v1/{orgId}/oauth/access_tokens',
          scopes: Object.fromEntries(managementScopes.map((scope) => [scope, scopeDescription(scope)])),
        },
      },
    },
  };
}

function scopeDescription(scope: string): string {
  const [action, resource] = scope.split(':') as [string, string];
  return `${action} ${resource.replace(/_/g, ' ')}`;
}

function security(api: ApiName, route: RouteDefinition): Json[] {
  switch (route.auth.kind) {
    case 'none':
      return [];
    case 'collector-app':
      return [{ applicationId: [] }];
    case 'management-token':
      return [{ oauth2: [route.auth.scope] }];
    case 'shared-view-token':
    case 'customer-token':
      // The credential is the `{token}` path parameter (a link anyone may open): no header scheme.
      return [];
    default:
      throw new Error(`${api} route ${route.path} has an unknown auth kind`);
  }
}
