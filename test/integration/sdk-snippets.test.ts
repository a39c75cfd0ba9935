import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { sdkSnippets, type SdkSnippet } from '../../console/src/features/apps/utils/sdk-snippets';
import { pythonWith } from './support/python-env';
import { eventually, send, startTestRuntime, type TestRuntime } from './support/runtime';
import { freePort } from './support/service-process';

/**
 * The Apps page's snippets, pasted as they are into a real app of each SDK's framework (Express,
 * a Node script, Flask, FastAPI, a page in Chromium): one call through each lands in the collector.
 * Only the browser page's script URL is swapped for the installed file (the tests have no CDN).
 */
const ROOT = resolve(__dirname, '../..');
const WORK = join(ROOT, '.cache', 'snippets');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('the SDK snippets of the Apps page, in real apps', () => {
  let rt: TestRuntime;
  let snippets: Map<SdkSnippet['sdk'], string>;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    rt = await startTestRuntime('sdk-snippets');
    snippets = new Map(sdkSnippets(rt.credentials.collector_application_id, rt.credentials.collector_url).map((s) => [s.sdk, s.code]));
    await mkdir(WORK, { recursive: true });
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await rt?.dispose();
    await rm(WORK, { recursive: true, force: true });
  });

  /** Events whose route is the given path, once at least one is searchable. */
  const landed = async (route: string) => {
    const count = () => rt.management('POST', '/search/~/count/events?from=-1h&to=now', {}, { query: { term: { 'request.route.raw': route } } });
    const answer = await eventually(count, (r) => r.body.count >= 1, 30_000);
    return answer.body.count as number;
  };

  /** Runs a program file with the given command, waiting until its port answers. */
  const serve = async (command: string, file: string, text: string, port: number, path: string) => {
    await writeFile(join(WORK, file), text);
    const child = spawn(command, [join(WORK, file)], { cwd: WORK, env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const answer = await eventually(
      () => send(`http://127.0.0.1:${port}${path}`, { method: 'GET' }).catch(() => ({ status: 0 })),
      (r) => r.status === 200,
      60_000,
    );
    if (answer.status !== 200) throw new Error(`${file} did not answer on ${port}:\n${output}`);
  };

  it('moesif-nodejs in an Express app', async () => {
    const port = await freePort();
    const app = `const express = require('express');
const app = express();
${snippets.get('moesif-nodejs')}
app.get('/snippet-express', (req, res) => res.json({ ok: true }));
app.listen(Number(process.env.PORT), '127.0.0.1');
`;
    await serve(process.execPath, 'express-app.js', app, port, '/snippet-express');
    expect(await landed('/snippet-express')).toBeGreaterThanOrEqual(1);
  }, 90_000);

  it('moesifapi in a Node script', async () => {
    const file = join(WORK, 'moesifapi-script.js');
    await writeFile(file, snippets.get('moesifapi')!.replace('https://api.example.com/items', 'https://api.example.com/snippet-moesifapi'));
    const child = spawn(process.execPath, [file], { cwd: WORK, stdio: 'inherit' });
    expect(await new Promise((done) => child.on('exit', done))).toBe(0);
    expect(await landed('/snippet-moesifapi')).toBe(1);
  }, 60_000);

  it('moesifwsgi in a Flask app and moesifasgi in a FastAPI app', async () => {
    const python = pythonWith(join(__dirname, 'python-sdks', 'requirements.txt'));
    const flask = `import os
from flask import Flask, jsonify

app = Flask(__name__)


@app.route('/snippet-wsgi')
def snippet():
    return jsonify({'ok': True})


${snippets.get('moesifwsgi')}

if __name__ == '__main__':
    app.run(host='127.0.0.1', port=int(os.environ['PORT']))
`;
    const fastapi = `import os

import uvicorn
from fastapi import FastAPI

app = FastAPI()


@app.get('/snippet-asgi')
async def snippet():
    return {'ok': True}


${snippets.get('moesifasgi')}

if __name__ == '__main__':
    uvicorn.run(app, host='127.0.0.1', port=int(os.environ['PORT']), log_level='warning')
`;
    await serve(python, 'flask_app.py', flask, await freePort(), '/snippet-wsgi');
    await serve(python, 'fastapi_app.py', fastapi, await freePort(), '/snippet-asgi');
    expect(await landed('/snippet-wsgi')).toBeGreaterThanOrEqual(1);
    expect(await landed('/snippet-asgi')).toBeGreaterThanOrEqual(1);
  }, 300_000);

  it('moesif-browser-js in a page in Chromium', async () => {
    const sdk = await readFile(require.resolve('moesif-browser-js/moesif.min.js'), 'utf8');
    const code = snippets.get('moesif-browser-js')!.replace(/src="https:\/\/unpkg\.com[^"]+"/, 'src="/moesif.min.js"');
    const site: Server = createServer((request, response) => {
      if (request.url === '/moesif.min.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk);
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html><body>${code}
<script>setTimeout(() => fetch('/snippet-browser').catch(() => {}), 500);</script></body></html>`);
    });
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
      expect(await landed('/snippet-browser')).toBeGreaterThanOrEqual(1);
    } finally {
      await browser.close();
      site.close();
    }
  }, 90_000);
});
