/** Lambda entry: the collector API. Environment and clients are set up once per instance. */
import { collectorHandler } from '../composition-root/ingest-services';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { IngestStores } from '../composition-root/ingest-stores';
import { CollectorEnv, parseEnv } from '../definitions/environment';

const env = parseEnv(CollectorEnv);

// Rule snapshots (GET /v1/config) are cached per instance for the default 5 s; the refresher writes them elsewhere.
export const handler = collectorHandler(new IngestStores(lambdaStoresInput(env)), env.AWS_REGION);
