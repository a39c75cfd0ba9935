import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { assignmentsTag, canonicalJson, contentHash, EMPTY_SNAPSHOT, type RuleConfigSnapshot } from '../../../functions/governance/rule-config-store';
import { GovernanceRuleStore } from '../../../functions/governance/rule-store';
import { collectorOperations } from '../../../functions/routers/collector-operations';
import { configETag, configETagHeaders, sdkConfigFor } from '../../../functions/ingest/collector/sdk-config';
import { UploadStore } from '../../../functions/ingest/uploads/upload-store';
import type { HttpRequest } from '../../../functions/shared/http/types';
import { App, AppSettings } from '../../../schemas/app';
import type * as z from 'zod';
import { RuleAssignments } from '../../../schemas/governance';

/** The config ETag follows cohort membership, and GET /v1/config agrees with every other collector answer. */

const now = '2026-03-01T00:00:00.000Z';
const app = App.parse({
  org_id: 'o',
  app_id: 'a',
  name: 'etag',
  collector_application_id: 'e'.repeat(64),
  settings: AppSettings.parse({}),
  created_at: now,
  modified_at: now,
});
/** A snapshot as the store writes it: missing sample-rate maps filled in before hashing. */
const snapshotOf = (input: z.input<typeof RuleAssignments>): RuleConfigSnapshot => {
  const assignments = RuleAssignments.parse(input);
  return { hash: contentHash(canonicalJson(assignments)), tag: assignmentsTag(assignments), assignments };
};
const aliceBlocked = snapshotOf({ user_rules: { alice: [{ rules: 'r1', values: { '0': 'alice' } }] }, company_rules: {} });

test('the membership hash ignores key order but not content', () => {
  const a = snapshotOf({ user_rules: { alice: [{ rules: 'r1', values: {} }], bob: [{ rules: 'r1', values: {} }] }, company_rules: {} });
  const reordered = snapshotOf({ company_rules: {}, user_rules: { bob: [{ rules: 'r1', values: {} }], alice: [{ rules: 'r1', values: {} }] } });
  expect(reordered.hash).toBe(a.hash);
  expect(snapshotOf({ user_rules: { alice: [{ rules: 'r1', values: {} }] }, company_rules: {} }).hash).not.toBe(a.hash);
  expect(snapshotOf({ user_rules: {}, company_rules: {} }).hash).toBe(EMPTY_SNAPSHOT.hash);
});

test('the ETag changes when membership changes, and with the app’s settings', () => {
  const before = configETag(app);
  expect(before).toMatch(/^[0-9a-f]{32}$/);
  expect(configETag(app, EMPTY_SNAPSHOT.tag)).toBe(before);
  expect(configETag(app, aliceBlocked.tag)).not.toBe(before);
  const sampled = { ...app, settings: { ...app.settings, sample_rate: 50 } };
  expect(configETag(sampled, aliceBlocked.tag)).not.toBe(configETag(app, aliceBlocked.tag));
});

test('the tag leaves out the values that move while a company stays blocked, and nothing else', () => {
  const blocked = (values: Record<string, string>) => snapshotOf({ user_rules: {}, company_rules: { acme: [{ rules: 'quota', values }] } });
  const steady = { quota_limit: '100', quota_reset: '2026-04-01T00:00:00.000Z' };
  const at = (used: string) => blocked({ ...steady, quota_used: used, spend_cap_spent: used, balance: `-${used}` });
  // More calls while blocked: the stored content (and GET /v1/config's values) moves, the ETag does not.
  expect(at('101').hash).not.toBe(at('150').hash);
  expect(at('101').tag).toBe(at('150').tag);
  expect(configETag(app, at('101').tag)).toBe(configETag(app, at('150').tag));
  // Another limit, another company, or the block lifted: the SDK must act, the tag changes.
  expect(blocked({ ...steady, quota_limit: '200', quota_used: '101' }).tag).not.toBe(at('101').tag);
  expect(snapshotOf({ user_rules: {}, company_rules: { initech: [{ rules: 'quota', values: { ...steady, quota_used: '101' } }] } }).tag).not.toBe(
    at('101').tag,
  );
  expect(EMPTY_SNAPSHOT.tag).not.toBe(at('101').tag);
});

test('cohort sample rates change the membership hash and so the ETag', () => {
  const sampledAlice = snapshotOf({ user_rules: {}, company_rules: {}, user_sample_rate: { alice: 10 } });
  expect(sampledAlice.hash).not.toBe(EMPTY_SNAPSHOT.hash);
  expect(snapshotOf({ user_rules: {}, company_rules: {}, user_sample_rate: { alice: 20 } }).hash).not.toBe(sampledAlice.hash);
  expect(snapshotOf({ user_rules: {}, company_rules: {}, company_sample_rate: { alice: 10 } }).hash).not.toBe(sampledAlice.hash);
  expect(configETag(app, sampledAlice.tag)).not.toBe(configETag(app, EMPTY_SNAPSHOT.tag));
});

test('per-id sample rates: cohort members from the snapshot, under the ids the app’s settings name themselves', () => {
  const configured = { ...app, settings: { ...app.settings, user_sample_rate: { alice: 100 }, company_sample_rate: { initech: 5 } } };
  const snapshot = snapshotOf({ user_rules: {}, company_rules: {}, user_sample_rate: { alice: 10, bob: 10 }, company_sample_rate: { acme: 0 } });
  const config = sdkConfigFor(configured, snapshot);
  expect(config.user_sample_rate).toEqual({ alice: 100, bob: 10 });
  expect(config.company_sample_rate).toEqual({ acme: 0, initech: 5 });
});

test('answers that carry only the app repeat the ETag of the membership the refresher tagged it with', () => {
  const tagged = { ...app, rules_config_hash: aliceBlocked.tag };
  expect(configETagHeaders(tagged)['x-moesif-config-etag']).toBe(configETag(app, aliceBlocked.tag));
  expect(configETagHeaders(app)['x-moesif-config-etag']).toBe(configETag(app, EMPTY_SNAPSHOT.tag));
});

describe('GET /v1/config', () => {
  let stored: RuleConfigSnapshot = EMPTY_SNAPSHOT;
  const documents = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
  const operations = collectorOperations({
    rules: new GovernanceRuleStore(documents, 'unused', { read: async () => stored }),
    publisher: { publish: async () => undefined },
    uploads: new UploadStore(new S3Client({ region: 'us-east-1' }), 'unused'),
    region: 'test',
  });
  const get = () => operations['config']!({} as HttpRequest, app);

  it('serves the stored membership as user_rules / company_rules with the ETag of that content', async () => {
    const empty = await get();
    expect(empty.body).toMatchObject({ user_rules: {}, company_rules: {}, sample_rate: 100 });
    expect(empty.headers?.['x-moesif-config-etag']).toBe(configETag(app));

    stored = aliceBlocked;
    const filled = await get();
    expect(filled.body).toMatchObject({ user_rules: { alice: [{ rules: 'r1', values: { '0': 'alice' } }] }, company_rules: {} });
    expect(filled.headers?.['x-moesif-config-etag']).toBe(configETag(app, aliceBlocked.tag));
    expect(filled.headers?.['x-config-etag']).toBe(filled.headers?.['x-moesif-config-etag']);
    expect(filled.headers?.['x-moesif-config-etag']).not.toBe(empty.headers?.['x-moesif-config-etag']);
  });
});
