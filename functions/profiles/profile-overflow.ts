import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';

/** Where profile documents too large for their DynamoDB item are kept, as JSON text by key. */
export interface ProfileDocumentOverflow {
  put(key: string, json: string): Promise<void>;
  /** The JSON text; throws when the key holds nothing (an item never points at a missing document). */
  get(key: string): Promise<string>;
  delete(key: string): Promise<void>;
}

/** The overflow store in the profile-documents bucket. */
export class S3ProfileDocumentOverflow implements ProfileDocumentOverflow {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, json: string): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: json, ContentType: 'application/json' }));
  }

  async get(key: string): Promise<string> {
    const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return object.Body!.transformToString('utf8');
  }

  async delete(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
