import { App, AppSettings } from '../../../schemas/app';
import { UploadStore } from '../../../functions/ingest/uploads/upload-store';
import { createS3Client } from '../../../functions/shared/aws/clients';

// Presigning is local computation: no request is sent.
describe('pre-signed upload URLs', () => {
  const now = new Date().toISOString();
  const app = App.parse({
    org_id: 'o',
    app_id: 'a',
    name: 'x',
    collector_application_id: 'f'.repeat(64),
    settings: AppSettings.parse({}),
    created_at: now,
    modified_at: now,
  });

  it('carry no checksum of the empty body they were signed with, on AWS as with emulators', async () => {
    const previous = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_REGION: 'eu-west-1' });
    const s3 = createS3Client({ region: 'eu-west-1' });
    try {
      const { url, method } = await new UploadStore(s3, 'uploads-bucket').create(app, 'event');
      const parsed = new URL(url);
      expect(method).toBe('PUT');
      expect(parsed.hostname).toBe('uploads-bucket.s3.eu-west-1.amazonaws.com');
      expect([...parsed.searchParams.keys()].filter((key) => /checksum/i.test(key))).toEqual([]);
      expect(parsed.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    } finally {
      s3.destroy();
      process.env = previous;
    }
  });
});
