/**
 * What to paste into an app to send its calls here, for each SDK the README names, filled with the
 * app's collector application id and the collector's URL. A test pastes each into a real app of its
 * framework and checks the call lands (test/integration/sdk-snippets.test.ts).
 */

export interface SdkSnippet {
  /** The package name, as installed. */
  readonly sdk: 'moesif-nodejs' | 'moesif-browser-js' | 'moesifwsgi' | 'moesifasgi' | 'moesifapi';
  readonly title: string;
  /** How to install it. */
  readonly install: string;
  readonly language: 'javascript' | 'python' | 'html';
  readonly code: string;
}

/** The browser SDK takes a host and path, and uses the page's own scheme (http: or https:). */
export function browserHost(collectorUrl: string): string {
  const url = new URL(collectorUrl);
  return `${url.host}${url.pathname.replace(/\/$/, '')}`;
}

export function sdkSnippets(applicationId: string, collectorUrl: string): SdkSnippet[] {
  const id = JSON.stringify(applicationId);
  const base = JSON.stringify(collectorUrl);
  const py = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  // The two Python middlewares take the same settings and differ in how they wrap the app.
  const python = (module: string, wrap: string) => `from ${module} import MoesifMiddleware

moesif_settings = {
    'APPLICATION_ID': ${py(applicationId)},
    'BASE_URI': ${py(collectorUrl)},
    'LOG_BODY': True,
}
${wrap}`;
  return [
    {
      sdk: 'moesif-nodejs',
      title: 'Node.js: Express (moesif-nodejs)',
      install: 'npm install moesif-nodejs',
      language: 'javascript',
      code: `const moesif = require('moesif-nodejs');

// Before your routes: every call the app answers is sent here.
app.use(moesif({
  applicationId: ${id},
  baseUri: ${base},
  identifyUser: (req) => req.headers['x-user-id'],
  identifyCompany: (req) => req.headers['x-company-id'],
}));`,
    },
    {
      sdk: 'moesif-browser-js',
      title: 'Browser (moesif-browser-js)',
      install: 'npm install moesif-browser-js (or its script from a CDN)',
      language: 'html',
      code: `<script src="https://unpkg.com/moesif-browser-js@1/moesif.min.js"></script>
<script>
  moesif.init({ applicationId: ${id}, host: ${JSON.stringify(browserHost(collectorUrl))} });
  moesif.start();
</script>`,
    },
    {
      sdk: 'moesifwsgi',
      title: 'Python: Flask, Django or any WSGI app (moesifwsgi)',
      install: 'pip install moesifwsgi',
      language: 'python',
      code: python('moesifwsgi', 'app.wsgi_app = MoesifMiddleware(app.wsgi_app, moesif_settings)'),
    },
    {
      sdk: 'moesifasgi',
      title: 'Python: FastAPI, Starlette or any ASGI app (moesifasgi)',
      install: 'pip install moesifasgi',
      language: 'python',
      code: python('moesifasgi', 'app.add_middleware(MoesifMiddleware, settings=moesif_settings)'),
    },
    {
      sdk: 'moesifapi',
      title: 'Node.js: calls you log yourself (moesifapi)',
      install: 'npm install moesifapi',
      language: 'javascript',
      code: `const moesifapi = require('moesifapi');

moesifapi.configuration.ApplicationId = ${id};
moesifapi.configuration.BaseUri = ${base};

const event = new moesifapi.EventModel({
  request: { time: new Date(), uri: 'https://api.example.com/items', verb: 'GET', headers: {} },
  response: { time: new Date(), status: 200, headers: {} },
  userId: 'user-1',
});
moesifapi.ApiController.createEvent(event, (error) => {
  if (error) console.error('moesifapi:', error);
});`,
    },
  ];
}
