import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { routes } from '../../../functions/definitions/routes';

/**
 * The docs' endpoint tables (rows that start with a method and a path) are overviews of the route
 * table, which the OpenAPI documents and the rendered reference are made from: every row names a
 * route that exists with that method, and a scope a row names in backticks is the route's own. So a
 * renamed path or a changed scope cannot leave a page saying something the service no longer does.
 */
const root = resolve(__dirname, '../../..');
const pages = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);

interface Row {
  readonly page: string;
  readonly line: number;
  readonly methods: string[];
  readonly paths: string[];
  readonly scopes: string[];
}

const METHOD = /\b(GET|POST|PUT|PATCH|DELETE)\b/g;

function rowsOf(page: string): Row[] {
  const rows: Row[] = [];
  readFileSync(join(root, page), 'utf8')
    .split('\n')
    .forEach((text, index) => {
      // Pipes escaped inside a cell (`a\|b`) are part of the cell.
      const cells = text.split(/(?<!\\)\|/).map((cell) => cell.trim());
      if (cells.length < 4 || cells[0] !== '' || !/^(GET|POST|PUT|PATCH|DELETE)\b/.test(cells[1]!)) return;
      const paths = [...cells[2]!.matchAll(/`(\/[^`?\s]*)[^`]*`/g)].map((match) => match[1]!);
      const scopes = [...(cells[3] ?? '').matchAll(/`([a-z_]+:[a-z_]+)`/g)].map((match) => match[1]!);
      rows.push({ page, line: index + 1, methods: [...cells[1]!.matchAll(METHOD)].map((match) => match[1]!), paths, scopes });
    });
  return rows;
}

/** A path's shape: parameter names do not matter (`{id}` and `{planId}` are one segment). */
const shapeOf = (path: string) => path.replace(/\{[^}]+\}/g, '{}').replace(/\/$/, '');

function routeFor(method: string, path: string) {
  const candidates = [path, path.replace(/^\/v1(?=\/)/, '')].map(shapeOf);
  return routes.find((route) => route.method === method && candidates.includes(shapeOf(route.path)));
}

describe("the docs' endpoint tables", () => {
  const rows = pages.flatMap(rowsOf);

  it('are found on the pages that describe endpoints', () => {
    expect(new Set(rows.map((row) => row.page))).toEqual(
      new Set(['docs/billing.md', 'docs/collector-api.md', 'docs/managed-resources.md', 'docs/management-api.md']),
    );
    expect(rows.length).toBeGreaterThan(80);
  });

  it('name routes that exist, with their methods', () => {
    const missing = rows.flatMap((row) =>
      row.methods.flatMap((method) =>
        row.paths.filter((path) => routeFor(method, path) === undefined).map((path) => `${row.page}:${row.line} ${method} ${path}`),
      ),
    );
    expect(missing).toEqual([]);
  });

  it("name each route's own scope where they name scopes", () => {
    const wrong = rows.flatMap((row) => {
      if (row.scopes.length === 0) return [];
      return row.methods.flatMap((method) =>
        row.paths.flatMap((path) => {
          const auth = routeFor(method, path)?.auth;
          if (auth?.kind !== 'management-token' || row.scopes.includes(auth.scope)) return [];
          return [`${row.page}:${row.line} ${method} ${path}: ${auth.scope}, not ${row.scopes.join(' or ')}`];
        }),
      );
    });
    expect(wrong).toEqual([]);
  });
});
