import { isJsonObject } from '../../../lib/json-object';
/**
 * An OpenAPI 3.1 document as the API reference page shows it: every operation with its parameters,
 * body and answers, `$ref`s resolved. Read from the document as JSON (the service serves it at
 * /openapi.json), checked member by member rather than trusted.
 */

export interface SchemaOutline {
  /** `string`, `integer`, `object`, `array of X`, `one of`, the enum's values… */
  readonly type: string;
  readonly description?: string;
  /** The component it came from (`Cohort`), when it was a `$ref`. */
  readonly name?: string;
  readonly properties?: readonly { readonly name: string; readonly required: boolean; readonly schema: SchemaOutline }[];
  readonly items?: SchemaOutline;
  readonly variants?: readonly SchemaOutline[];
  readonly values?: readonly string[];
}

export interface ParameterOutline {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  readonly description?: string;
  readonly schema?: SchemaOutline;
}

export interface OperationOutline {
  readonly method: string;
  readonly path: string;
  readonly id: string;
  readonly tag: string;
  readonly summary: string;
  readonly description?: string;
  /** The OAuth scopes the operation needs (none for public ones). */
  readonly scopes: readonly string[];
  readonly parameters: readonly ParameterOutline[];
  readonly body?: { readonly required: boolean; readonly mediaTypes: readonly string[]; readonly schema?: SchemaOutline };
  readonly responses: readonly { readonly status: string; readonly description: string; readonly schema?: SchemaOutline }[];
}

export interface DocumentOutline {
  readonly title: string;
  readonly version: string;
  readonly operations: readonly OperationOutline[];
}

type Json = Record<string, unknown>;
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const records = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isJsonObject) : []);
const member = (value: unknown, key: string): Json => (isJsonObject(value) && isJsonObject(value[key]) ? value[key] : {});

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Nesting shown before a schema is named instead of expanded (the documents' schemas refer to themselves). */
const MAX_DEPTH = 6;

export function outlineOf(document: unknown): DocumentOutline {
  const info = member(document, 'info');
  const resolve = resolverOf(document);
  const operations: OperationOutline[] = [];
  for (const [path, item] of Object.entries(member(document, 'paths'))) {
    if (!isJsonObject(item)) continue;
    for (const method of METHODS) {
      const operation = resolve(item[method]);
      if (!isJsonObject(operation)) continue;
      operations.push(operationOutline(method, path, operation, [...records(item['parameters']), ...records(operation['parameters'])], resolve));
    }
  }
  return { title: text(info['title']) ?? 'API', version: text(info['version']) ?? '', operations };
}

/** Follows local `$ref`s (`#/components/schemas/Cohort`); anything else is returned as it is. */
function resolverOf(document: unknown) {
  return (value: unknown): unknown => {
    let current = value;
    for (let hops = 0; hops < 10 && isJsonObject(current) && typeof current['$ref'] === 'string'; hops += 1) {
      const ref = current['$ref'];
      if (!ref.startsWith('#/')) return current;
      let target: unknown = document;
      for (const part of ref.slice(2).split('/')) target = isJsonObject(target) ? target[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
      current = target;
    }
    return current;
  };
}

type Resolve = ReturnType<typeof resolverOf>;

function operationOutline(method: string, path: string, operation: Json, parameters: Json[], resolve: Resolve): OperationOutline {
  const scopes = records(operation['security']).flatMap((requirement) =>
    Object.values(requirement).flatMap((list) => (Array.isArray(list) ? list.filter((scope): scope is string => typeof scope === 'string') : [])),
  );
  const body = resolve(operation['requestBody']);
  const content = member(body, 'content');
  const mediaTypes = Object.keys(content);
  const firstMedia = mediaTypes[0];
  return {
    method: method.toUpperCase(),
    path,
    id: text(operation['operationId']) ?? `${method} ${path}`,
    tag: text(Array.isArray(operation['tags']) ? operation['tags'][0] : undefined) ?? 'other',
    summary: text(operation['summary']) ?? '',
    ...(text(operation['description']) ? { description: text(operation['description']) } : {}),
    scopes,
    parameters: parameters.map((raw) => {
      const parameter = resolve(raw);
      const p = isJsonObject(parameter) ? parameter : {};
      return {
        name: text(p['name']) ?? '',
        in: text(p['in']) ?? '',
        required: p['required'] === true,
        ...(text(p['description']) ? { description: text(p['description']) } : {}),
        ...(isJsonObject(p['schema']) ? { schema: schemaOutline(p['schema'], resolve, 0) } : {}),
      };
    }),
    ...(isJsonObject(body) && firstMedia !== undefined
      ? {
          body: {
            required: body['required'] === true,
            mediaTypes,
            ...(isJsonObject(member(content, firstMedia)['schema']) ? { schema: schemaOutline(member(content, firstMedia)['schema'], resolve, 0) } : {}),
          },
        }
      : {}),
    responses: Object.entries(member(operation, 'responses')).map(([status, raw]) => {
      const response = resolve(raw);
      const json = member(member(response, 'content'), 'application/json');
      return {
        status,
        description: text(isJsonObject(response) ? response['description'] : undefined) ?? '',
        ...(isJsonObject(json['schema']) ? { schema: schemaOutline(json['schema'], resolve, 0) } : {}),
      };
    }),
  };
}

function schemaOutline(raw: unknown, resolve: Resolve, depth: number): SchemaOutline {
  const ref = isJsonObject(raw) ? text(raw['$ref']) : undefined;
  const name = ref?.split('/').pop();
  const schema = resolve(raw);
  if (!isJsonObject(schema)) return { type: 'any' };
  const description = text(schema['description']);
  const base = { ...(description ? { description } : {}), ...(name ? { name } : {}) };
  if (depth >= MAX_DEPTH) return { ...base, type: name ?? 'object' };
  const variants = records(schema['oneOf'] ?? schema['anyOf']);
  if (variants.length > 0) return { ...base, type: 'one of', variants: variants.map((v) => schemaOutline(v, resolve, depth + 1)) };
  if (Array.isArray(schema['enum'])) return { ...base, type: 'one of the values', values: schema['enum'].map((value) => JSON.stringify(value)) };
  if (schema['const'] !== undefined) return { ...base, type: 'exactly', values: [JSON.stringify(schema['const'])] };
  const type = Array.isArray(schema['type']) ? schema['type'].filter((t) => typeof t === 'string').join(' or ') : (text(schema['type']) ?? 'any');
  if (type.startsWith('array')) {
    const items = schemaOutline(schema['items'], resolve, depth + 1);
    return { ...base, type: `array of ${items.name ?? items.type}`, items };
  }
  const properties = member(schema, 'properties');
  if (Object.keys(properties).length > 0) {
    const required = new Set(Array.isArray(schema['required']) ? schema['required'] : []);
    return {
      ...base,
      type,
      properties: Object.entries(properties).map(([propertyName, value]) => ({
        name: propertyName,
        required: required.has(propertyName),
        schema: schemaOutline(value, resolve, depth + 1),
      })),
    };
  }
  const format = text(schema['format']);
  return { ...base, type: format ? `${type} (${format})` : type };
}

/** The operations whose method, path, summary or tag hold every word of the filter, grouped by tag in document order. */
export function operationsByTag(outline: DocumentOutline, filter: string): [string, OperationOutline[]][] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const groups = new Map<string, OperationOutline[]>();
  for (const operation of outline.operations) {
    // The /v1 aliases repeat every route: the reference lists each once.
    if (operation.path.startsWith('/v1/') && outline.operations.some((o) => o.method === operation.method && o.path === operation.path.slice(3))) continue;
    const haystack = `${operation.method} ${operation.path} ${operation.summary} ${operation.tag}`.toLowerCase();
    if (!words.every((word) => haystack.includes(word))) continue;
    groups.set(operation.tag, [...(groups.get(operation.tag) ?? []), operation]);
  }
  return [...groups.entries()];
}
