import { namesToEnv, physicalNames } from '../../../bin/local/provision';
import { buckets, ingestStream, tables } from '../../../functions/definitions/resources';

describe('physical names', () => {
  it('prefixes tables and the stream, and spells buckets as legal S3 names', () => {
    const names = physicalNames('local-');
    expect(names.tables).toEqual({ resources: 'local-Resources', dedup: 'local-Dedup', profiles: 'local-Profiles', billing: 'local-Billing' });
    expect(names.stream).toBe('local-IngestStream');
    expect(names.buckets).toEqual({
      archive: 'local-archive-bucket',
      failedRecords: 'local-failed-records-bucket',
      profileDocuments: 'local-profile-documents-bucket',
      uploads: 'local-uploads-bucket',
      exports: 'local-exports-bucket',
    });
  });

  it('maps every definition envVar to its physical name', () => {
    const names = physicalNames('p-');
    expect(namesToEnv(names)).toEqual({
      [tables.resources.envVar]: 'p-Resources',
      [tables.dedup.envVar]: 'p-Dedup',
      [tables.profiles.envVar]: 'p-Profiles',
      [tables.billing.envVar]: 'p-Billing',
      [ingestStream.envVar]: 'p-IngestStream',
      [buckets.archive.envVar]: 'p-archive-bucket',
      [buckets.failedRecords.envVar]: 'p-failed-records-bucket',
      [buckets.profileDocuments.envVar]: 'p-profile-documents-bucket',
      [buckets.uploads.envVar]: 'p-uploads-bucket',
      [buckets.exports.envVar]: 'p-exports-bucket',
    });
  });

  it('lower-cases the prefix for buckets only', () => {
    const names = physicalNames('Dev-');
    expect(names.tables.dedup).toBe('Dev-Dedup');
    expect(names.stream).toBe('Dev-IngestStream');
    expect(names.buckets.archive).toBe('dev-archive-bucket');
    expect(() => physicalNames('dev_')).toThrow(/"dev_archive-bucket" is not a valid bucket name/);
  });

  it('rejects a prefix that cannot make legal names, saying which', () => {
    expect(() => physicalNames('bad prefix/')).toThrow(/not a valid table name/);
    expect(() => physicalNames(`${'x'.repeat(45)}-`)).toThrow(/"x+-failed-records-bucket" is not a valid bucket name/);
  });
});
