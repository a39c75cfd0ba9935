/** Lambda entry: the management API's shared-view routes (`/public/views/...`). */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { ServiceStores } from '../composition-root/service-stores';
import { sharedViewApiHandler } from '../composition-root/shared-view-services';
import { parseEnv, SharedViewApiEnv } from '../definitions/environment';
import { secretsManagerSigningKey } from '../management-tokens/signing-key';
import { retryableOnce } from '../shared/retryable-once';
import { searchIndexFromEnv } from '../search/search-backend';

const env = parseEnv(SharedViewApiEnv);
const index = searchIndexFromEnv(env);

export const handler = sharedViewApiHandler(
  new ServiceStores(
    lambdaStoresInput(env, {
      managementRateLimitPerMinute: env.MANAGEMENT_RATE_LIMIT_PER_MINUTE,
      customerPagesRateLimitPerMinute: env.CUSTOMER_PAGES_RATE_LIMIT_PER_MINUTE,
      queryTimeBudgetMs: env.QUERY_TIME_BUDGET_MS,
      concurrentQueriesPerOrg: env.CONCURRENT_QUERIES_PER_ORG,
    }),
  ),
  {
    index,
    ready: retryableOnce(() => index.ensureReady()),
    signingKey: secretsManagerSigningKey(new SecretsManagerClient({ region: env.AWS_REGION }), env.TOKEN_SIGNING_SECRET_ARN),
  },
);
