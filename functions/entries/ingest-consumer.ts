/** Lambda entry: the ingest consumer behind the Kinesis event source mapping. */
import { consumerHandler } from '../composition-root/consumer-services';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { IngestStores } from '../composition-root/ingest-stores';
import { ConsumerEnv, parseEnv, settingVariables } from '../definitions/environment';
import { openCallerEnricher } from '../enrichment';
import { searchIndexFromEnv } from '../search/search-backend';
import { embeddedMetrics } from '../shared/metrics';
import { retryableOnce } from '../shared/retryable-once';

const env = parseEnv(ConsumerEnv);
const index = searchIndexFromEnv(env);
const ready = retryableOnce(() => index.ensureReady());
const consume = consumerHandler(
  new IngestStores(lambdaStoresInput(env)),
  index,
  embeddedMetrics('UsageAnalytics/Ingest', { Service: 'ingest-consumer' }),
  openCallerEnricher(env[settingVariables.geoIpDatabase]),
);

export const handler: typeof consume = async (event) => {
  await ready();
  return consume(event);
};
