import { HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { parseIncomingKey, isMissing, resultKey } from '../../functions/ingest/uploads/upload-store';
import { sleep } from '../../functions/shared/concurrency';

/**
 * Local stand-in for the S3 ObjectCreated notification that starts the upload processor on AWS:
 * lists `incoming/` and hands every upload that has no result yet to the same processor.
 */
export class UploadWatcher {
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly settled = new Set<string>();

  constructor(
    private readonly options: { s3: S3Client; bucket: string; process: (key: string) => Promise<unknown>; intervalMs?: number; log?: (line: string) => void },
  ) {}

  start(): void {
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        try {
          await this.scanOnce();
        } catch (error) {
          this.options.log?.(`uploads: scan failed: ${(error as Error).message}`);
        }
        await sleep(this.options.intervalMs ?? 500);
      }
    })();
  }

  async scanOnce(): Promise<void> {
    let token: string | undefined;
    do {
      const page = await this.options.s3.send(new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: 'incoming/', ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        const key = object.Key!;
        if (this.settled.has(key)) continue;
        const target = parseIncomingKey(key);
        if (!target || (await this.hasResult(target.orgId, target.appId, target.uploadId))) {
          this.settled.add(key);
          continue;
        }
        try {
          await this.options.process(key);
          this.settled.add(key);
        } catch (error) {
          // Left unsettled: the next scan retries it, like a retried S3 notification.
          this.options.log?.(`uploads: processing ${key} failed, will retry: ${(error as Error).message}`);
        }
      }
      token = page.NextContinuationToken;
    } while (token);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async hasResult(orgId: string, appId: string, uploadId: string): Promise<boolean> {
    try {
      await this.options.s3.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: resultKey(orgId, appId, uploadId) }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
}
