/** Lambda entry: the management API's search routes. */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { ServiceStores } from '../composition-root/service-stores';
import { searchApiHandler } from '../composition-root/search-services';
import { parseEnv, SearchApiEnv } from '../definitions/environment';
import { secretsManagerSigningKey } from '../management-tokens/signing-key';
import { retryableOnce } from '../shared/retryable-once';
import { searchIndexFromEnv } from '../search/search-backend';

const env = parseEnv(SearchApiEnv);
const index = searchIndexFromEnv(env);

export const handler = searchApiHandler(
  new ServiceStores(
    lambdaStoresInput(env, {
      managementRateLimitPerMinute: env.MANAGEMENT_RATE_LIMIT_PER_MINUTE,
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
