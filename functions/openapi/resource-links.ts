/**
 * OpenAPI links from each create operation to the operations on what it created: `POST P` that
 * answers 201 with a resource is linked to every operation of `P/{param}`, the parameter taken from
 * the answer (its own field, `_id` or `id`, whichever the resource has) and the parent path's
 * parameters from the request. Clients and stateful testers (schemathesis) follow them: create,
 * read, update, delete in sequence.
 */

type Json = Record<string, unknown>;

const SCHEMA_REF = '#/components/schemas/';
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

export function addResourceLinks(paths: Record<string, Json>, schemas: Record<string, Json>): void {
  for (const [path, item] of Object.entries(paths)) {
    const created = (item['post'] as Json | undefined)?.['responses'] as Record<string, Json> | undefined;
    const answer = created?.['201'];
    const resource = resourceSchema(answer, schemas);
    if (answer === undefined || resource === undefined) continue;
    const links: Json = {};
    for (const [subPath, subItem] of Object.entries(paths)) {
      const param = childParameter(path, subPath);
      if (param === undefined) continue;
      const field = idField(param, resource);
      if (field === undefined) continue;
      const parameters: Json = Object.fromEntries(parentParameters(path).map((name) => [name, `$request.path.${name}`]));
      parameters[param] = `$response.body#/${field}`;
      for (const method of METHODS) {
        const target = subItem[method] as Json | undefined;
        const operationId = target?.['operationId'];
        if (typeof operationId !== 'string') continue;
        links[linkName(method, operationId)] = { operationId, parameters, description: `${method.toUpperCase()} ${subPath} of the created resource` };
      }
    }
    if (Object.keys(links).length > 0) answer['links'] = links;
  }
}

/** The one parameter `sub` adds to `parent` (`/a/{b}` under `/a`), or undefined. */
function childParameter(parent: string, sub: string): string | undefined {
  const match = /^\/\{(\w+)\}$/.exec(sub.startsWith(`${parent}/`) ? sub.slice(parent.length) : '');
  return match?.[1];
}

const parentParameters = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);

/** The answer's schema when it is one named object schema (a resource), else undefined. */
function resourceSchema(answer: Json | undefined, schemas: Record<string, Json>): Json | undefined {
  const ref = (((answer?.['content'] as Json | undefined)?.['application/json'] as Json | undefined)?.['schema'] as Json | undefined)?.['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith(SCHEMA_REF)) return undefined;
  const name = ref.slice(SCHEMA_REF.length);
  return schemas[name] ?? schemas[`${name}Response`];
}

/** Which required field of the resource fills the path parameter: its own name (snake_case too), else `_id` or `id`. */
function idField(param: string, resource: Json): string | undefined {
  const required = new Set((resource['required'] as string[] | undefined) ?? []);
  const snake = param.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  return [param, snake, '_id', 'id'].find((field) => required.has(field));
}

const linkName = (method: string, operationId: string): string => `${method}_${operationId}`;
