import { Match } from 'aws-cdk-lib/assertions';
import { buckets, tables } from '../../functions/definitions/resources';
import { logicalIdOf, synthesize } from './synth';

const { stack, template, resources } = synthesize();

describe('DynamoDB tables', () => {
  it('has exactly the tables of the shared definitions', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', Object.keys(tables).length);
  });

  it.each(Object.entries(tables))('%s: keys, billing, PITR, TTL and retention come from the definition', (key, definition) => {
    const table = resources[logicalIdOf(stack.storage.tables[key as keyof typeof tables])]!;
    expect(table.DeletionPolicy).toBe('Retain');
    const keySchema = [
      { AttributeName: definition.partitionKey.name, KeyType: 'HASH' },
      ...('sortKey' in definition ? [{ AttributeName: definition.sortKey.name, KeyType: 'RANGE' }] : []),
    ];
    const attributes = [definition.partitionKey, ...('sortKey' in definition ? [definition.sortKey] : [])].map((a) => ({
      AttributeName: a.name,
      AttributeType: a.type,
    }));
    expect(table.Properties.KeySchema).toEqual(keySchema);
    expect(table.Properties.AttributeDefinitions).toEqual(attributes);
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    if ('timeToLiveAttribute' in definition) {
      expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: definition.timeToLiveAttribute, Enabled: true });
    } else {
      expect(table.Properties.TimeToLiveSpecification).toBeUndefined();
    }
  });

  it('expires dedup claims through TTL', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true } });
  });
});

describe('S3 buckets', () => {
  const bucketIds = [...Object.values(stack.storage.buckets), stack.storage.accessLogsBucket].map(logicalIdOf);

  it('has the buckets of the shared definitions plus the access log bucket', () => {
    expect(
      Object.keys(buckets)
        .map((key) => logicalIdOf(stack.storage.buckets[key as keyof typeof buckets]))
        .every((id) => resources[id]?.Type === 'AWS::S3::Bucket'),
    ).toBe(true);
    template.resourceCountIs('AWS::S3::Bucket', Object.keys(buckets).length + 1);
  });

  it.each(bucketIds)('%s is encrypted, private, owner-enforced and retained', (id) => {
    const bucket = resources[id]!;
    expect(bucket.Properties.BucketEncryption).toEqual({ ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] });
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
    expect(bucket.DeletionPolicy).toBe('Retain');
  });

  it.each(bucketIds)('%s refuses requests without TLS', (id) => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('logs access to every data bucket into the access log bucket', () => {
    for (const bucket of Object.values(stack.storage.buckets)) {
      expect(resources[logicalIdOf(bucket)]!.Properties.LoggingConfiguration).toEqual({
        DestinationBucketName: { Ref: logicalIdOf(stack.storage.accessLogsBucket) },
        LogFilePrefix: expect.any(String),
      });
    }
  });

  it('versions the archive and moves it to cheaper storage classes over time', () => {
    const archive = resources[logicalIdOf(stack.storage.buckets.archive)]!.Properties;
    expect(archive.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    const rule = archive.LifecycleConfiguration.Rules[0];
    expect(rule.Transitions).toEqual([
      { StorageClass: 'STANDARD_IA', TransitionInDays: 30 },
      { StorageClass: 'GLACIER_IR', TransitionInDays: 90 },
    ]);
    expect(rule.NoncurrentVersionExpiration).toEqual({ NoncurrentDays: 30 });
  });

  it('expires uploaded batches after 7 days', () => {
    const uploads = resources[logicalIdOf(stack.storage.buckets.uploads)]!.Properties;
    expect(uploads.LifecycleConfiguration.Rules).toEqual([expect.objectContaining({ ExpirationInDays: 7, Status: 'Enabled' })]);
  });
});
