import * as z from 'zod';
import { routeSchemas } from '../../../functions/openapi/route-schemas';
import { appKind } from '../../../functions/management/apps';
import { billingMeterKind } from '../../../functions/management/billing-meters';
import { cohortKind } from '../../../functions/management/cohorts';
import { governanceRuleKind } from '../../../functions/management/governance-rules';
import type { ResourceContext, SystemFields } from '../../../functions/resources/crud-operations';
import type { ResourceDeps } from '../../../functions/resources/resource-deps';
import type { HttpRequest } from '../../../functions/shared/http/types';
import { managementScopes } from '../../../schemas/scopes';

/**
 * Answers built as plain objects (no interface to compare at compile time) checked against the
 * schemas the OpenAPI document gives them: the document must describe what the code answers.
 */

// The kinds' toStored/present touch no dependency; the store and clients are never called here.
// A store with no other resources: the kinds' checks that list siblings (rule limits) find none.
const deps = { store: { list: async () => ({ items: [] }) } } as unknown as ResourceDeps;
const at = '2026-11-22T05:00:00.000Z';
const system: SystemFields = { _id: '0000000001-abc', org_id: 'org-1', app_id: 'app-1', created_at: at, modified_at: at };

function context(method: string, pathParams: Record<string, string> = {}): ResourceContext {
  const request = {
    method,
    path: '/~/x',
    headers: { host: 'api.example.com' },
    cookies: {},
    query: {},
    pathParams,
    rawBody: Buffer.alloc(0),
    sourceIp: '',
    receivedAt: new Date(at),
  } as HttpRequest;
  return {
    caller: { iss: 'usage-analytics', sub: 'u', org_id: 'org-1', app_id: 'app-1', scopes: [...managementScopes], iat: 0, jti: 'j' },
    orgId: 'org-1',
    appId: 'app-1',
    request,
    now: at,
  };
}

const strictly = (schema: z.ZodType) => (schema instanceof z.ZodObject ? schema.strict() : schema);

it('an app as the API shows it matches the documented App (all fields, nothing undocumented)', async () => {
  const kind = appKind(deps);
  const created = context('POST');
  const stored = await kind.toStored(
    kind.createSchema.parse({ name: 'Shop', custom_app_id: 'shop', time_zone: 'Europe/Paris', sample_rate: 50 }),
    created,
    system,
  );
  const documented = strictly(routeSchemas['apps.get']!.response!);
  for (const ctx of [created, context('GET', { id: system._id })]) {
    const shown = kind.present!(stored, ctx);
    expect(documented.safeParse(shown).error?.issues ?? []).toEqual([]);
  }
});

it('a cohort as stored and shown matches the documented Cohort', async () => {
  const kind = cohortKind(deps);
  const input = kind.createSchema.parse({ cohort_name: 'Big spenders', cohort_type: 'user', criteria: { term: { 'metadata.plan': 'pro' } }, time_zone: 'UTC' });
  const stored = await kind.toStored(input, context('POST'), system);
  const shown = kind.present ? kind.present(stored, context('GET')) : stored;
  expect(routeSchemas['cohorts.get']!.response!.safeParse(shown).error?.issues ?? []).toEqual([]);
  expect(typeof (shown as { criteria: unknown }).criteria).toBe('string');
});

it('a governance rule as stored and shown matches the documented GovernanceRule', async () => {
  const kind = governanceRuleKind(deps);
  const input = kind.createSchema.parse({
    name: 'Block free tier',
    type: 'regex',
    state: 1,
    block: true,
    regex_config: [{ conditions: [{ path: 'request.route', value: '/v1/.*' }] }],
  });
  const stored = await kind.toStored(input, context('POST'), system);
  const shown = kind.present ? kind.present(stored, context('GET')) : stored;
  expect(routeSchemas['governanceRules.get']!.response!.safeParse(shown).error?.issues ?? []).toEqual([]);
});

it('a billing meter as stored and shown matches the documented BillingMeter (es_query as JSON text)', async () => {
  const kind = billingMeterKind();
  const input = kind.createSchema.parse({
    name: 'API calls',
    slug: 'api-calls',
    es_query: { query: { match_all: {} } },
    billing_plan: { provider_slug: 'webhook' },
  });
  const stored = await kind.toStored(input, context('POST'), system);
  const shown = kind.present ? kind.present(stored, context('GET')) : stored;
  expect(routeSchemas['billingMeters.get']!.response!.safeParse(shown).error?.issues ?? []).toEqual([]);
  expect(typeof (shown as { es_query: unknown }).es_query).toBe('string');
});
