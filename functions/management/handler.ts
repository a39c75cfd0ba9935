/** Lambda entry: the management API's OAuth, access-token and resource routes. */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ManagementApiEnv, parseEnv } from '../../schemas/env';
import { AppStore } from '../auth/app-store';
import { secretsManagerSigningKey } from '../auth/signing-key';
import { searchIndexFromEnv } from '../search/search-backend';
import { createDocumentClient, createDynamoDbClient } from '../shared/aws/clients';
import { createManagementApiHandler } from './management-api-handler';

const env = parseEnv(ManagementApiEnv);
const documents = createDocumentClient(createDynamoDbClient({ region: env.AWS_REGION }));

export const handler = createManagementApiHandler({
  documents,
  resourcesTable: env.RESOURCES_TABLE,
  rateLimitPerMinute: env.MANAGEMENT_RATE_LIMIT_PER_MINUTE,
  billingTable: env.BILLING_TABLE,
  apps: new AppStore(documents, env.RESOURCES_TABLE),
  signingKey: secretsManagerSigningKey(new SecretsManagerClient({ region: env.AWS_REGION }), env.TOKEN_SIGNING_SECRET_ARN),
  index: searchIndexFromEnv(env),
});
