/** Lambda entry: the ingest consumer behind the Kinesis event source mapping. */
import { ConsumerEnv, parseEnv } from '../../definitions/environment';
import { S3ProfileDocumentOverflow } from '../../profiles/profile-overflow';
import { ProfileStore } from '../../profiles/profile-store';
import { searchIndexFromEnv } from '../../search/search-backend';
import { createAwsClients } from '../../shared/aws/clients';
import { retryableOnce } from '../../shared/retryable-once';
import { embeddedMetrics } from '../../shared/metrics';
import { LateWindowStore } from '../../billing/late-events/late-window-store';
import { Archive } from './archive';
import { createConsumerHandler } from './consumer-handler';
import { DedupStore } from './dedup-store';
import { Quarantine } from './quarantine';

const env = parseEnv(ConsumerEnv);
const clients = createAwsClients({ region: env.AWS_REGION });
const index = searchIndexFromEnv(env);
const ready = retryableOnce(() => index.ensureReady());
const consume = createConsumerHandler({
  dedup: new DedupStore(clients.documents, env.DEDUP_TABLE),
  profiles: new ProfileStore(clients.documents, env.PROFILES_TABLE, new S3ProfileDocumentOverflow(clients.s3, env.PROFILE_DOCUMENTS_BUCKET)),
  index,
  archive: new Archive(clients.s3, env.ARCHIVE_BUCKET),
  quarantine: new Quarantine(clients.s3, env.FAILED_RECORDS_BUCKET),
  lateWindows: new LateWindowStore(clients.documents, env.BILLING_TABLE),
  metrics: embeddedMetrics('UsageAnalytics/Ingest', { Service: 'ingest-consumer' }),
});

export const handler: typeof consume = async (event) => {
  await ready();
  return consume(event);
};
