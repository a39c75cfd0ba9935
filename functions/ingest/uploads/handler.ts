/** Lambda entry: processes batches uploaded through pre-signed URLs (S3 ObjectCreated on incoming/). */
import { parseEnv, UploadProcessorEnv } from '../../definitions/environment';
import { AppStore } from '../../organisations/app-store';
import { createAwsClients } from '../../shared/aws/clients';
import { KinesisPublisher } from '../stream/publisher';
import { createUploadHandler } from './upload-handler';
import { UploadStore } from './upload-store';

const env = parseEnv(UploadProcessorEnv);
const clients = createAwsClients({ region: env.AWS_REGION });

export const handler = createUploadHandler({
  s3: clients.s3,
  bucket: env.UPLOADS_BUCKET,
  apps: new AppStore(clients.documents, env.RESOURCES_TABLE),
  uploads: new UploadStore(clients.s3, env.UPLOADS_BUCKET),
  publisher: new KinesisPublisher(clients.kinesis, env.INGEST_STREAM_NAME),
  now: () => new Date(),
});
