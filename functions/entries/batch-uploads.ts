/** Lambda entry: processes batches uploaded through pre-signed URLs (S3 ObjectCreated on incoming/). */
import { uploadProcessor } from '../composition-root/ingest-services';
import { lambdaStoresInput } from '../composition-root/lambda-stores';
import { IngestStores } from '../composition-root/ingest-stores';
import { parseEnv, UploadProcessorEnv } from '../definitions/environment';

export const handler = uploadProcessor(new IngestStores(lambdaStoresInput(parseEnv(UploadProcessorEnv))));
