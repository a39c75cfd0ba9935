import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { operationsByTag, outlineOf, type SchemaOutline } from './openapi-outline';

const documentOf = (name: string): unknown => JSON.parse(readFileSync(resolve(__dirname, `../../../../../openapi/${name}.json`), 'utf8'));
const management = outlineOf(documentOf('management'));

describe('the API reference outline of the committed documents', () => {
  it('lists every operation of every path, without the CORS preflights', () => {
    const document = documentOf('management') as { paths: Record<string, Record<string, unknown>> };
    const expected = Object.entries(document.paths).flatMap(([path, item]) =>
      ['get', 'post', 'put', 'patch', 'delete'].filter((method) => method in item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(management.operations.map((o) => `${o.method} ${o.path}`)).toEqual(expected);
    expect(management.operations.some((o) => o.method === 'OPTIONS')).toBe(false);
  });

  it('resolves a body, its answers and the error responses through their $refs', () => {
    const create = management.operations.find((o) => o.method === 'POST' && o.path === '/~/cohorts')!;
    expect(create).toMatchObject({ summary: 'Create a cohort', tag: 'cohorts', scopes: ['create:cohorts'] });
    expect(create.body).toMatchObject({ required: true, mediaTypes: ['application/json'], schema: { name: 'CohortCreate', type: 'object' } });
    const names = create.body!.schema!.properties!.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['cohort_name', 'cohort_type', 'criteria']));
    expect(create.body!.schema!.properties!.find((p) => p.name === 'cohort_name')).toMatchObject({ required: true, schema: { type: 'string' } });
    expect(create.responses.map((r) => r.status)).toEqual(expect.arrayContaining(['201', '400', '401']));
    const refused = create.responses.find((r) => r.status === '400')!;
    expect(refused.description).not.toBe('');
    expect(refused.schema).toMatchObject({ name: 'Error' });
    expect(refused.schema?.properties?.[0]?.schema.properties?.map((p) => p.name)).toEqual(expect.arrayContaining(['code', 'message', 'details']));
  });

  it('lists query parameters with their schemas, and stops expanding at a depth', () => {
    const list = management.operations.find((o) => o.method === 'GET' && o.path === '/~/cohorts')!;
    expect(list.parameters.map((p) => [p.name, p.in, p.required])).toEqual(
      expect.arrayContaining([
        ['take', 'query', false],
        ['before_id', 'query', false],
      ]),
    );
    const depth = (schema: SchemaOutline | undefined): number =>
      schema === undefined
        ? 0
        : 1 + Math.max(0, ...(schema.properties ?? []).map((p) => depth(p.schema)), depth(schema.items), ...(schema.variants ?? []).map(depth));
    for (const operation of management.operations) for (const response of operation.responses) expect(depth(response.schema)).toBeLessThanOrEqual(8);
  });

  it('groups by tag, lists each route once (not its /v1 alias) and filters by every word', () => {
    const all = operationsByTag(management, '');
    const listed = all.flatMap(([, operations]) => operations);
    expect(listed.some((o) => o.path === '/v1/~/cohorts')).toBe(false);
    expect(listed.some((o) => o.path === '/~/cohorts')).toBe(true);
    const cohortPosts = operationsByTag(management, 'post cohort').flatMap(([, operations]) => operations);
    expect(cohortPosts.length).toBeGreaterThan(0);
    for (const o of cohortPosts) expect(`${o.method} ${o.path} ${o.summary} ${o.tag}`.toLowerCase()).toMatch(/post.*cohort|cohort.*post/);
    expect(operationsByTag(management, 'no-such-word-anywhere')).toEqual([]);
  });

  it('reads the collector document too', () => {
    const collector = outlineOf(documentOf('collector'));
    expect(collector.operations.some((o) => o.method === 'POST' && o.path === '/v1/events')).toBe(true);
  });

  it('reads a malformed document as having nothing, rather than failing', () => {
    expect(outlineOf(null)).toEqual({ title: 'API', version: '', operations: [] });
    expect(outlineOf({ paths: { '/x': { get: 'not an operation' } } }).operations).toEqual([]);
  });
});
