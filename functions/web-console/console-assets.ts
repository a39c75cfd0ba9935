import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { HttpHandler } from '../shared/http/handler';
import type { HttpResult } from '../shared/http/types';

/** Where the console is served on the management API. */
export const CONSOLE_PATH = '/console';
/** Where the management API sends a browser for its endpoint reference. */
export const API_REFERENCE_PATH = '/docs';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export interface ConsoleSettings {
  /** The management API the console calls; absent: the origin the console was loaded from (as locally). */
  readonly managementUrl?: () => string;
  /** Pre-fills the sign-in form. */
  readonly orgId?: () => string | undefined;
  /** The collector's URL, shown in the SDK snippets. */
  readonly collectorUrl?: () => string | undefined;
  /** The built console: console/dist locally, `console/` beside the bundle in the management Lambda. */
  readonly distDir: string;
}

/**
 * The management API's /console/ paths (the local server's and the management Lambda's alike): the built console (hashed assets cached for good,
 * index.html never), `config.json` saying where the API is, and index.html for every other path
 * under /console/ so deep links reload. Everything else goes to the API.
 */
export function withConsole(api: HttpHandler, settings: ConsoleSettings): HttpHandler {
  const distDir = resolve(settings.distDir);
  return async (event, context) => {
    const path = event.rawPath;
    // The endpoint reference is a page of the console, rendered from the API's own OpenAPI document.
    if (path === API_REFERENCE_PATH) return { statusCode: 308, headers: { location: `${CONSOLE_PATH}/api-reference` }, body: '' };
    if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) return api(event, context);
    const method = event.requestContext?.http?.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return plain(405, 'The console is read with GET');
    if (path === CONSOLE_PATH) return { statusCode: 308, headers: { location: `${CONSOLE_PATH}/` }, body: '' };
    let relative: string;
    try {
      relative = decodeURIComponent(path.slice(CONSOLE_PATH.length + 1));
    } catch {
      // A malformed %-escape names no file (and must not become a 500).
      return plain(404, 'No such file');
    }
    if (relative === 'config.json') {
      const orgId = settings.orgId?.();
      const managementUrl = settings.managementUrl?.();
      const collectorUrl = settings.collectorUrl?.();
      return json({
        ...(managementUrl ? { management_url: managementUrl } : {}),
        ...(orgId ? { org_id: orgId } : {}),
        ...(collectorUrl ? { collector_url: collectorUrl } : {}),
      });
    }
    const file = resolve(distDir, relative);
    if (file !== distDir && !file.startsWith(distDir + sep)) return plain(404, 'No such file');
    if (relative !== '' && (await isFile(file))) return asset(file, relative.startsWith('assets/'));
    // A path of the console's own router (no file extension): the app decides what it shows.
    // Shared-view and unsubscribe pages end in a token, whose dots are not a file extension.
    if (extname(relative) !== '' && !isTokenPage(relative)) return plain(404, 'No such file');
    const index = join(distDir, 'index.html');
    if (!(await isFile(index)))
      return plain(
        503,
        'The console is not built: npm start builds it locally (npm run console:build does it alone); cdk deploy builds it into the management Lambda',
      );
    const page = await asset(index, false);
    return { ...page, headers: { ...page.headers, ...framingHeaders(relative) } };
  };
}

/**
 * The console's pages may not be framed by other sites (a signed-in page in a hostile frame invites
 * clickjacking); the embeddable shared view (`/console/embed/<token>`) and a customer's usage page
 * (`/console/customer/<token>`, shown inside the API company's own product) are made to be, anywhere.
 */
export function framingHeaders(relative: string): Record<string, string> {
  if (relative.startsWith(`${EMBED_SEGMENT}/`) || relative.startsWith(`${CUSTOMER_SEGMENT}/`)) return { 'content-security-policy': 'frame-ancestors *' };
  return { 'content-security-policy': "frame-ancestors 'none'", 'x-frame-options': 'DENY' };
}

/** The console routes that end in a token: shared views, plain and embeddable, email unsubscribe pages and customer pages (console/src/app/router.tsx). */
export const EMBED_SEGMENT = 'embed';
export const CUSTOMER_SEGMENT = 'customer';
const TOKEN_PAGES = new Set(['shared', EMBED_SEGMENT, 'unsubscribe']);

/** `shared|embed|unsubscribe/<token>` or `customer/<token>[/templates]`: the page, whatever the token's characters. */
function isTokenPage(relative: string): boolean {
  const [section, token, rest, ...more] = relative.split('/');
  if (token === undefined || token === '' || more.length > 0) return false;
  if (TOKEN_PAGES.has(section ?? '')) return rest === undefined;
  return section === CUSTOMER_SEGMENT && (rest === undefined || rest === 'templates');
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function asset(file: string, immutable: boolean): Promise<HttpResult> {
  const bytes = await readFile(file);
  return {
    statusCode: 200,
    headers: {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      // Vite names assets by content hash: a changed file is a new URL.
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
    },
    body: bytes.toString('base64'),
    isBase64Encoded: true,
  };
}

function json(body: unknown): HttpResult {
  return { statusCode: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-cache' }, body: JSON.stringify(body) };
}

function plain(statusCode: number, message: string): HttpResult {
  return { statusCode, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: message };
}
