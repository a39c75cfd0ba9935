// A small Express app that shows each of its signed-in customers their own usage and bill, by
// embedding the usage page of usage-analytics in an iframe (docs/customer-portal.md).
//
//   MANAGEMENT_URL=http://127.0.0.1:4010 MANAGEMENT_TOKEN=... node examples/customer-portal/server.mjs
//
// The management token needs the scope read:public_workspaces (it mints customer tokens only).
// Signing in here is a stand-in for your product's own: a form that remembers a company id in a
// cookie. What matters is the step after it: on every page load, the server mints a short-lived
// token for *that* customer, server to server, and the browser only ever sees that token.
import express from 'express';

const managementUrl = process.env.MANAGEMENT_URL;
const managementToken = process.env.MANAGEMENT_TOKEN;
if (!managementUrl || !managementToken) {
  console.error('Set MANAGEMENT_URL and MANAGEMENT_TOKEN (a management token with read:public_workspaces)');
  process.exit(1);
}
// How the usage page looks inside this product (all optional).
const theme = new URLSearchParams({
  title: process.env.PORTAL_TITLE ?? 'Your API usage',
  accent: process.env.PORTAL_ACCENT ?? '#0b7a53',
  locale: process.env.PORTAL_LOCALE ?? 'en-US',
  ...(process.env.PORTAL_LOGO ? { logo: process.env.PORTAL_LOGO } : {}),
});

const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const signedInCustomer = (request) => /(?:^|;\s*)customer=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];

/** Mints a token for one customer: its usage page, templates and spend cap, for an hour. */
async function mintCustomerToken(companyId) {
  const answer = await fetch(`${managementUrl}/~/customer_tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${managementToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ company_id: companyId, expires_in: 3600 }),
  });
  if (answer.status !== 201) throw new Error(`minting a customer token answered ${answer.status}: ${await answer.text()}`);
  return answer.json();
}

const app = express();
app.use(express.urlencoded({ extended: false }));

app.get('/', async (request, response, next) => {
  const companyId = signedInCustomer(request);
  if (!companyId) {
    response.type('html').send(`<!doctype html><html lang="en"><title>Sign in</title><main>
      <h1>Sign in</h1>
      <form method="post" action="/sign-in"><label>Company id <input name="company_id" required></label> <button>Sign in</button></form>
    </main></html>`);
    return;
  }
  try {
    const { usage_url: usageUrl } = await mintCustomerToken(decodeURIComponent(companyId));
    response.type('html').send(`<!doctype html><html lang="en"><title>Usage</title><main>
      <h1>Account of ${escapeHtml(decodeURIComponent(companyId))}</h1>
      <iframe title="Usage and billing" src="${escapeHtml(`${usageUrl}?${theme}`)}" style="width:100%;height:900px;border:0"></iframe>
      <form method="post" action="/sign-out"><button>Sign out</button></form>
    </main></html>`);
  } catch (error) {
    next(error);
  }
});

app.post('/sign-in', (request, response) => {
  const companyId = String(request.body.company_id ?? '').trim();
  response.setHeader('set-cookie', `customer=${encodeURIComponent(companyId)}; HttpOnly; SameSite=Lax; Path=/`);
  response.redirect(303, '/');
});

app.post('/sign-out', (_request, response) => {
  response.setHeader('set-cookie', 'customer=; Max-Age=0; Path=/');
  response.redirect(303, '/');
});

const server = app.listen(Number(process.env.PORT ?? 4100), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address();
  console.log(`customer portal example on http://${address}:${port}`);
});
