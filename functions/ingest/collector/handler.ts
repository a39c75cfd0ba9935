/** Lambda entry: the collector API. Environment and clients are set up once per instance. */
import { CollectorEnv, parseEnv } from '../../definitions/environment';
import { AppStore } from '../../organisations/app-store';
import { GovernanceRuleStore } from '../../governance/rule-store';
import { createAwsClients } from '../../shared/aws/clients';
import { KinesisPublisher } from '../stream/publisher';
import { UploadStore } from '../uploads/upload-store';
import { createCollectorHandler } from './collector-handler';

const env = parseEnv(CollectorEnv);
const clients = createAwsClients({ region: env.AWS_REGION });

export const handler = createCollectorHandler({
  apps: new AppStore(clients.documents, env.RESOURCES_TABLE),
  rules: new GovernanceRuleStore(clients.documents, env.RESOURCES_TABLE),
  publisher: new KinesisPublisher(clients.kinesis, env.INGEST_STREAM_NAME),
  uploads: new UploadStore(clients.s3, env.UPLOADS_BUCKET),
  region: env.AWS_REGION,
});
