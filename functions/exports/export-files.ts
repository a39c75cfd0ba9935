import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ExportFormat } from '../../schemas/resources/export-job';
import type { ExportRef } from './export-jobs';

/** How long a download URL works; every GET of the job signs new ones. */
export const EXPORT_URL_TTL_SECONDS = 3600;

/**
 * The parts of exports in the exports bucket:
 *   exports/<org>/<app>/<export id>/part-00001.ndjson.gz   (or .csv.gz)
 * A part's key depends only on the job and its number, so a part written again after a crash
 * replaces the first attempt instead of adding to it.
 */
export class ExportFiles {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  partKey(ref: ExportRef, number: number, format: ExportFormat): string {
    return `${jobPrefix(ref)}part-${String(number).padStart(5, '0')}.${format}.gz`;
  }

  async put(key: string, body: Buffer): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        // A gzip file to keep as it is (no Content-Encoding, which clients would undo on the way).
        ContentType: 'application/gzip',
        ContentDisposition: `attachment; filename="${key.slice(key.lastIndexOf('/') + 1)}"`,
      }),
    );
  }

  async downloadUrl(key: string): Promise<string> {
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: EXPORT_URL_TTL_SECONDS });
  }

  /** Deletes every part of the job (written or half-written). */
  async deleteAll(ref: ExportRef): Promise<void> {
    let token: string | undefined;
    do {
      const page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: jobPrefix(ref), ContinuationToken: token }));
      const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key! }));
      if (keys.length > 0) await this.s3.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

const jobPrefix = (ref: ExportRef) => `exports/${ref.orgId}/${ref.appId}/${ref.id}/`;
