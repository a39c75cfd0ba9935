import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OPENAPI_FILES } from '../../functions/openapi/documents';
import { send, startTestRuntime, type TestRuntime } from './support/runtime';

const committed = (api: 'collector' | 'management') => JSON.parse(readFileSync(resolve(__dirname, '../..', OPENAPI_FILES[api]), 'utf8'));

describe('GET /openapi.json on the local servers', () => {
  let runtime: TestRuntime;

  beforeAll(async () => {
    runtime = await startTestRuntime('openapi');
  });

  afterAll(async () => {
    await runtime?.dispose();
  });

  it('the collector serves its committed document without an application id', async () => {
    const response = await send(`${runtime.credentials.collector_url}/openapi.json`, { method: 'GET' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.body).toEqual(committed('collector'));
    expect(response.body.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(['/v1/events', '/v1/events/batch', '/openapi.json']));
  });

  it('the management API serves its committed document without a token, as written and under /v1', async () => {
    for (const path of ['/openapi.json', '/v1/openapi.json']) {
      const response = await send(`${runtime.credentials.management_url}${path}`, { method: 'GET' });
      expect([path, response.status]).toEqual([path, 200]);
      expect(response.body).toEqual(committed('management'));
    }
    const document = committed('management');
    expect(document.components.securitySchemes.oauth2.flows.password.tokenUrl).toBe('/v1/{orgId}/oauth/access_tokens');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/search/~/search/events', '/v1/search/~/search/events']));
  });

  it('refuses other methods on the document with the JSON error shape', async () => {
    const response = await send(`${runtime.credentials.management_url}/openapi.json`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.body.error).toEqual(expect.objectContaining({ status: 405, code: 'method_not_allowed' }));
  });
});
