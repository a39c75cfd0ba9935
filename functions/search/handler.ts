/** Lambda entry: the management API's search routes. */
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { parseEnv, SearchApiEnv } from '../definitions/environment';
import { secretsManagerSigningKey } from '../management-tokens/signing-key';
import { S3ProfileDocumentOverflow } from '../profiles/profile-overflow';
import { ProfileStore } from '../profiles/profile-store';
import { AppStore } from '../organisations/app-store';
import { KinesisPublisher } from '../ingest/stream/publisher';
import { createDocumentClient, createDynamoDbClient, createKinesisClient, createS3Client } from '../shared/aws/clients';
import { retryableOnce } from '../shared/retryable-once';
import { createSearchApiHandler } from './search-api-handler';
import { searchIndexFromEnv } from './search-backend';

const env = parseEnv(SearchApiEnv);
const index = searchIndexFromEnv(env);
const documents = createDocumentClient(createDynamoDbClient({ region: env.AWS_REGION }));

export const handler = createSearchApiHandler({
  index,
  profiles: new ProfileStore(documents, env.PROFILES_TABLE, new S3ProfileDocumentOverflow(createS3Client({ region: env.AWS_REGION }), env.PROFILE_DOCUMENTS_BUCKET)),
  documents,
  resourcesTable: env.RESOURCES_TABLE,
  rateLimitPerMinute: env.MANAGEMENT_RATE_LIMIT_PER_MINUTE,
  signingKey: secretsManagerSigningKey(new SecretsManagerClient({ region: env.AWS_REGION }), env.TOKEN_SIGNING_SECRET_ARN),
  ready: retryableOnce(() => index.ensureReady()),
  apps: new AppStore(documents, env.RESOURCES_TABLE),
  publisher: new KinesisPublisher(createKinesisClient({ region: env.AWS_REGION }), env.INGEST_STREAM_NAME),
});
