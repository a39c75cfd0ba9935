import { batchGet } from '../shared/aws/batch-get';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DISABLED_RULE_STATE, type SdkRule, StoredCohort, StoredRule } from '../../schemas/governance';
import { appRulesPartition, COHORT_SORT_PREFIX, RULE_SORT_PREFIX } from '../resources/keys';
import type { RuleConfigReader, RuleConfigSnapshot } from './rule-config-store';
import { modelOf } from './rule-model';
import { queryAll, queryItems } from '../shared/aws/query-pages';

/**
 * Governance rules of an app, in the resources table under ORG#<org>#APP#<app> / RULE#<id>, and the
 * cohorts they name (COHORT#<id>). The management API writes them; the collector serves them to SDKs
 * (GET /v1/rules) and the refresher turns cohorts into membership (GET /v1/config).
 */

export type GovernanceRule = Record<string, unknown> & { _id: string };

/** BatchGetItem's per-call key limit. */

export class GovernanceRuleStore {
  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** The stored membership the refresher computed; the collector's GET /v1/config reads it. */
    private readonly config: RuleConfigReader,
  ) {}

  async listForApp(orgId: string, appId: string): Promise<GovernanceRule[]> {
    const items = await queryAll(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :rule)',
      ExpressionAttributeValues: { ':pk': appRulesPartition(orgId, appId), ':rule': RULE_SORT_PREFIX },
    });
    return items.map(({ pk: _pk, sk, ...rule }) => ({
      ...rule,
      // The id is the sort key's; a document written without `_id` still gets one.
      _id: typeof rule['_id'] === 'string' ? rule['_id'] : String(sk).slice(RULE_SORT_PREFIX.length),
    }));
  }

  /** The app's enabled rules, parsed; a stored rule that does not parse is skipped rather than breaking every SDK. */
  async enabledRules(orgId: string, appId: string): Promise<StoredRule[]> {
    const rules: StoredRule[] = [];
    for (const raw of await this.listForApp(orgId, appId)) {
      const parsed = StoredRule.safeParse(raw);
      if (parsed.success && parsed.data.state !== DISABLED_RULE_STATE) rules.push(parsed.data);
    }
    return rules;
  }

  /** GET /v1/rules: the enabled rules in the SDKs' shape. */
  async sdkRules(orgId: string, appId: string): Promise<SdkRule[]> {
    return (await this.enabledRules(orgId, appId)).map(toSdkRule);
  }

  /** Cohorts by id (missing or unparsable ones are absent from the answer). */
  async cohorts(orgId: string, appId: string, ids: readonly string[]): Promise<Map<string, StoredCohort>> {
    const found = new Map<string, StoredCohort>();
    const unique = [...new Set(ids)];
    const keys = unique.map((id) => ({ pk: appRulesPartition(orgId, appId), sk: `${COHORT_SORT_PREFIX}${id}` }));
    for (const item of await batchGet(this.documents, this.tableName, keys)) {
      const parsed = StoredCohort.safeParse(item);
      if (parsed.success) found.set(String(item['sk']).slice(COHORT_SORT_PREFIX.length), parsed.data);
    }
    return found;
  }

  /** The app's cohorts that have a `sample_rate` (dynamic sampling), by id; unparsable ones are left out. */
  async sampledCohorts(orgId: string, appId: string): Promise<Map<string, StoredCohort>> {
    const found = new Map<string, StoredCohort>();
    for await (const item of queryItems(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :cohort)',
      FilterExpression: 'attribute_exists(sample_rate)',
      ExpressionAttributeValues: { ':pk': appRulesPartition(orgId, appId), ':cohort': COHORT_SORT_PREFIX },
      // Consistent: the refresh right after DELETE …/sample_rate must not see the rate still there.
      ConsistentRead: true,
    })) {
      const parsed = StoredCohort.safeParse(item);
      if (parsed.success) found.set(String(item['sk']).slice(COHORT_SORT_PREFIX.length), parsed.data);
    }
    return found;
  }

  /** GET /v1/config: the membership snapshot the refresher stored (empty before its first run). */
  async ruleConfig(orgId: string, appId: string): Promise<RuleConfigSnapshot> {
    return this.config.read(orgId, appId);
  }
}

export function toSdkRule(rule: StoredRule): SdkRule {
  return {
    _id: rule._id,
    name: rule.name ?? '',
    type: rule.type,
    block: rule.block,
    applied_to: rule.applied_to ?? 'matching',
    applied_to_unidentified: rule.applied_to_unidentified ?? false,
    variables: [
      ...rule.variables,
      ...billingVariables(rule)
        .filter((name) => !rule.variables.some((v) => v.name === name))
        .map((name) => ({ name, path: `billing.${name}` })),
    ],
    regex_config: rule.regex_config,
    response: rule.response && Object.keys(rule.response).length > 0 ? rule.response : defaultResponse(rule),
  };
}

/**
 * The values the refresher computes for a rule with plans (plan-selection.ts), declared as variables
 * too: SDKs fill only `{{name}}`s the rule declares.
 */
export function billingVariables(rule: Pick<StoredRule, 'model' | 'plans'>): string[] {
  const model = modelOf(rule);
  if (model === 'cohort' && rule.plans.length === 0) return [];
  if (model === 'spend_cap') return ['spend_cap_budget', 'spend_cap_spent', 'spend_cap_currency', 'spend_cap_reset'];
  const common = ['subscription_id', 'plan_id'];
  if (model === 'quota') return [...common, 'quota_limit', 'quota_used', 'quota_period_start', 'quota_reset', 'quota_reset_http'];
  if (model === 'balance') return [...common, 'balance'];
  if (model === 'subscription') return [...common, 'subscription_status'];
  return common;
}

/**
 * What a billing rule without a response of its own answers: 429 with the limit and reset time for a
 * quota, 402 for a used-up balance or an inactive subscription. The SDK fills `{{…}}` from the values
 * the refresher computed for the company.
 */
export function defaultResponse(rule: Pick<StoredRule, 'model'>): Record<string, unknown> {
  switch (modelOf(rule)) {
    case 'quota':
      return {
        status: 429,
        headers: {
          'X-RateLimit-Limit': '{{quota_limit}}',
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': '{{quota_reset}}',
          'Retry-After': '{{quota_reset_http}}',
        },
        body: { error: { code: 'quota_exceeded', message: 'The quota of {{quota_limit}} for this billing period is used up; it resets at {{quota_reset}}' } },
      };
    case 'balance':
      return { status: 402, body: { error: { code: 'balance_exhausted', message: 'The prepaid balance is used up; top up to continue' } } };
    case 'subscription':
      return {
        status: 402,
        body: { error: { code: 'subscription_inactive', message: 'Subscription {{subscription_id}} is {{subscription_status}}: it is not active' } },
      };
    case 'spend_cap':
      return {
        status: 402,
        body: {
          error: {
            code: 'spend_cap_reached',
            message: 'The spend cap of {{spend_cap_budget}} {{spend_cap_currency}} for this billing period is reached; it resets at {{spend_cap_reset}}',
          },
        },
      };
    case 'cohort':
      return {};
  }
}
