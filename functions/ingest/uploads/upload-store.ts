import { randomUUID } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import * as z from 'zod';
import type { App } from '../../../schemas/app';
import { RecordKind } from '../../../schemas/stream-record';
import { NotFoundError, PayloadTooLargeError } from '../../shared/errors';

/**
 * Large batches (beyond API Gateway's 10 MB / Lambda's 6 MB body limits, up to the 50 MB batch
 * limit) are PUT straight to S3 with a pre-signed URL; an S3 notification starts their processing,
 * and the result is written beside them for GET /v1/uploads/{id}.
 *
 *   incoming/<org>/<app>/<kind>/<upload id>   the uploaded body (JSON array, optionally gzip)
 *   results/<org>/<app>/<upload id>.json      the processing result
 */
export const UPLOAD_URL_TTL_SECONDS = 3600;

export const UploadResult = z.object({
  upload_id: z.string(),
  status: z.enum(['pending', 'accepted', 'rejected']),
  kind: RecordKind,
  accepted: z.number().int().optional(),
  error: z.unknown().optional(),
  processed_at: z.string().optional(),
});
export type UploadResult = z.infer<typeof UploadResult>;

export const UploadKind = z.enum(['event', 'action', 'user', 'company', 'subscription']);

export function incomingKey(app: Pick<App, 'org_id' | 'app_id'>, kind: RecordKind, uploadId: string): string {
  return `incoming/${app.org_id}/${app.app_id}/${kind}/${uploadId}`;
}

export function resultKey(orgId: string, appId: string, uploadId: string): string {
  return `results/${orgId}/${appId}/${uploadId}.json`;
}

export function parseIncomingKey(key: string): { orgId: string; appId: string; kind: RecordKind; uploadId: string } | undefined {
  const match = /^incoming\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(key);
  const kind = RecordKind.safeParse(match?.[3]);
  if (!match || !kind.success) return undefined;
  return { orgId: match[1]!, appId: match[2]!, kind: kind.data, uploadId: match[4]! };
}

export class UploadStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async create(app: App, kind: RecordKind): Promise<{ upload_id: string; url: string; method: 'PUT'; expires_in: number; kind: RecordKind }> {
    const uploadId = randomUUID();
    const url = await getSignedUrl(this.s3, new PutObjectCommand({ Bucket: this.bucket, Key: incomingKey(app, kind, uploadId) }), {
      expiresIn: UPLOAD_URL_TTL_SECONDS,
    });
    return { upload_id: uploadId, url, method: 'PUT', expires_in: UPLOAD_URL_TTL_SECONDS, kind };
  }

  async status(app: App, uploadId: string): Promise<UploadResult> {
    if (!/^[0-9a-f-]{36}$/.test(uploadId)) throw new NotFoundError(`No upload ${uploadId}`);
    const result = await this.readResult(app.org_id, app.app_id, uploadId);
    if (result) return result;
    for (const kind of RecordKind.options) {
      if (await this.exists(incomingKey(app, kind, uploadId))) return { upload_id: uploadId, status: 'pending', kind };
    }
    throw new NotFoundError(`No upload ${uploadId}: it was never uploaded, or its URL expired unused`);
  }

  /** The bytes of an uploaded batch; a 413 error when it is over `maxBytes` (then it is not read). */
  async readUpload(key: string, maxBytes: number): Promise<Buffer> {
    const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if ((object.ContentLength ?? 0) > maxBytes) {
      throw new PayloadTooLargeError(`The uploaded batch is larger than ${maxBytes} bytes; split it`);
    }
    return Buffer.from(await object.Body!.transformToByteArray());
  }

  async writeResult(orgId: string, appId: string, result: UploadResult): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: resultKey(orgId, appId, result.upload_id),
        Body: JSON.stringify(result),
        ContentType: 'application/json',
      }),
    );
  }

  private async readResult(orgId: string, appId: string, uploadId: string): Promise<UploadResult | undefined> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: resultKey(orgId, appId, uploadId) }));
      return UploadResult.parse(JSON.parse(await object.Body!.transformToString('utf8')));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  private async exists(key: string): Promise<boolean> {
    try {
      await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
}

export function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
