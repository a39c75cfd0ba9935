import { Stack, Validations, type CfnResource } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';

export type ObjectAction = 's3:GetObject' | 's3:PutObject' | 's3:DeleteObject';

/**
 * Grants exactly the named object actions under one key pattern of a bucket (CDK's grantRead /
 * grantPut add families such as `s3:GetObject*` and `s3:Abort*`). Object keys are generated at
 * run time, so the key part stays a wildcard: that one cdk-nag finding is acknowledged with `reason`.
 */
export function grantObjectAccess(role: iam.IRole, bucket: s3.IBucket, actions: ObjectAction[], keyPattern: string, reason: string): void {
  role.addToPrincipalPolicy(new iam.PolicyStatement({ actions, resources: [bucket.arnForObjects(keyPattern)] }));
  if (keyPattern.includes('*')) {
    const bucketLogicalId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnResource);
    Validations.of(role).acknowledge({ id: `AwsSolutions-IAM5[Resource::<${bucketLogicalId}.Arn>/${keyPattern}]`, reason });
  }
}

/** s3:ListBucket: with it a missing key reads as 404 (NoSuchKey) instead of 403. */
export function grantListBucket(role: iam.IRole, bucket: s3.IBucket): void {
  role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
}
