import type { S3Event } from 'aws-lambda';
import { processUpload, type UploadProcessorDeps } from './process-upload';

/** The upload processor Lambda: one S3 ObjectCreated notification may name several uploads. */
export function createUploadHandler(deps: UploadProcessorDeps): (event: S3Event) => Promise<void> {
  return async (event) => {
    for (const record of event.Records) {
      // S3 notifications URL-encode keys, with '+' for spaces.
      await processUpload(deps, decodeURIComponent(record.s3.object.key.replace(/\+/g, ' ')));
    }
  };
}
