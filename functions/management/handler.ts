/** Lambda entry: the management API's OAuth, access-token and resource routes. */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ManagementApiEnv, parseEnv } from '../definitions/environment';
import { AppStore } from '../organisations/app-store';
import { secretsManagerSigningKey } from '../management-tokens/signing-key';
import { searchIndexFromEnv } from '../search/search-backend';
import { createDocumentClient, createDynamoDbClient } from '../shared/aws/clients';
import { governanceChangeHook, GovernanceRefresher } from '../governance/refresher';
import { RuleConfigStore } from '../governance/rule-config-store';
import { GovernanceRuleStore } from '../governance/rule-store';
import { createManagementApiHandler } from './management-api-handler';

const env = parseEnv(ManagementApiEnv);
const documents = createDocumentClient(createDynamoDbClient({ region: env.AWS_REGION }));
const apps = new AppStore(documents, env.RESOURCES_TABLE);
const index = searchIndexFromEnv(env);
// Governance changes recompute the app's rule membership before the answer (the schedule catches the rest).
const ruleConfigs = new RuleConfigStore(documents, env.RESOURCES_TABLE, { cacheTtlMs: 0 });
const governance = new GovernanceRefresher({ documents, resourcesTable: env.RESOURCES_TABLE, apps, rules: new GovernanceRuleStore(documents, env.RESOURCES_TABLE, ruleConfigs), configs: ruleConfigs, index });

export const handler = createManagementApiHandler({
  documents,
  resourcesTable: env.RESOURCES_TABLE,
  rateLimitPerMinute: env.MANAGEMENT_RATE_LIMIT_PER_MINUTE,
  billingTable: env.BILLING_TABLE,
  webhookAllowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
  apps,
  signingKey: secretsManagerSigningKey(new SecretsManagerClient({ region: env.AWS_REGION }), env.TOKEN_SIGNING_SECRET_ARN),
  index,
  onGovernanceChange: governanceChangeHook(governance),
});
