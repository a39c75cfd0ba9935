import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpEvent, HttpResult } from '../../../functions/shared/http/types';
import { withConsole } from '../../../functions/web-console/console-assets';

const event = (rawPath: string, method = 'GET') => ({ rawPath, headers: {}, requestContext: { http: { method, path: rawPath } } }) as unknown as HttpEvent;
const text = (result: HttpResult) => (result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64').toString('utf8') : (result.body ?? ''));

describe('the console on the management API', () => {
  let dist: string;
  const api = jest.fn(async () => ({ statusCode: 200, body: 'api' }) as HttpResult);
  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'console-dist-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>console</title>');
    await writeFile(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    await writeFile(join(dist, '..', 'secret.txt'), 'not for the web');
  });

  const serve = (path: string, method?: string) => withConsole(api, { distDir: dist, orgId: () => 'org_1' })(event(path, method)) as Promise<HttpResult>;

  it('serves hashed assets cached for good and index.html for every page of the console router', async () => {
    const asset = await serve('/console/assets/index-abc123.js');
    expect(asset).toMatchObject({
      statusCode: 200,
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' },
    });
    expect(text(asset)).toBe('console.log(1)');
    for (const page of ['/console/', '/console/events', '/console/events/abc?time=x', '/console/billing/reports/r1']) {
      const index = await serve(page.split('?')[0]!);
      expect(index).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } });
      expect(text(index)).toContain('<title>console</title>');
    }
  });

  it('forbids framing every console page but the embeddable shared view, which any site may frame', async () => {
    for (const page of ['/console/', '/console/events', '/console/shared/sv1.abc.def']) {
      expect((await serve(page)).headers).toMatchObject({ 'content-security-policy': "frame-ancestors 'none'", 'x-frame-options': 'DENY' });
    }
    const embed = await serve('/console/embed/sv1.abc.def');
    expect(embed.headers?.['content-security-policy']).toBe('frame-ancestors *');
    expect(embed.headers?.['x-frame-options']).toBeUndefined();
    expect(text(embed)).toContain('<title>console</title>');
  });

  it("answers config.json with the organisation to pre-fill, and no API URL when the console shares the API's origin", async () => {
    expect(JSON.parse(text(await serve('/console/config.json')))).toEqual({ org_id: 'org_1' });
  });

  it('never serves a file outside the build, a missing asset, or anything but GET', async () => {
    expect((await serve('/console/../secret.txt')).statusCode).toBe(404);
    expect((await serve('/console/%2e%2e/secret.txt')).statusCode).toBe(404);
    expect((await serve('/console/assets/missing.js')).statusCode).toBe(404);
    expect((await serve('/console/%E0%A4%A')).statusCode).toBe(404);
    // A token with dots is a page of its kind; a file-looking path of another shape is not.
    for (const page of ['/console/customer/ct1.a.b', '/console/customer/ct1.a.b/templates', '/console/unsubscribe/u1.a.b'])
      expect((await serve(page)).statusCode).toBe(200);
    for (const page of ['/console/customer/ct1.a.b/other.js', '/console/shared/a.b/c.d', '/console/other/a.b'])
      expect((await serve(page)).statusCode).toBe(404);
    expect((await serve('/console/events', 'POST')).statusCode).toBe(405);
    expect(await serve('/console')).toMatchObject({ statusCode: 308, headers: { location: '/console/' } });
  });

  it('leaves every other path to the API', async () => {
    expect(text(await serve('/~/apps'))).toBe('api');
    expect(text(await serve('/consoles'))).toBe('api');
  });
});
