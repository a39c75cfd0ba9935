import { Lazy, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import { Construct } from 'constructs';

export interface SearchDomainProps {
  /**
   * The domain's name (3-28 characters, lower case), fixed or a deploy-time token: the access policy
   * names the domain's ARN through it.
   */
  readonly domainName: string;
  readonly instanceType: string;
  readonly instanceCount: number;
  readonly volumeGiB: number;
  readonly removalPolicy: RemovalPolicy;
  readonly logRetention: logs.RetentionDays;
}

/**
 * The search index on AWS: an OpenSearch domain reached over HTTPS with SigV4-signed requests.
 * Only the roles handed to `grantHttpAccess` may call it; its resource policy names them.
 */
export class SearchDomain extends Construct {
  readonly domain: opensearch.Domain;
  /** `https://<domain endpoint>`: what the Lambdas receive as OPENSEARCH_ENDPOINT. */
  readonly endpointUrl: string;
  /** Replicas per index the node count can hold (OPENSEARCH_REPLICAS): 0 for one node, else 1. */
  readonly replicas: number;
  private readonly principals: iam.IRole[] = [];

  constructor(scope: Construct, id: string, props: SearchDomainProps) {
    super(scope, id);
    if (!Token.isUnresolved(props.domainName) && !/^[a-z][a-z0-9-]{2,27}$/.test(props.domainName)) {
      throw new Error(`search domain name "${props.domainName}" must be 3-28 characters: a lower-case letter, then lower-case letters, digits or hyphens`);
    }
    const availabilityZones = zoneCount(props.instanceCount);
    const stack = Stack.of(this);
    const domainArn = stack.formatArn({ service: 'es', resource: 'domain', resourceName: props.domainName });

    const logGroup = (name: string) => new logs.LogGroup(this, name, { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const slowSearchLogs = logGroup('SlowSearchLogs');
    const slowIndexLogs = logGroup('SlowIndexLogs');
    const applicationLogs = logGroup('ApplicationLogs');

    // A native CloudWatch Logs resource policy instead of CDK's custom-resource one: no extra Lambda.
    const logDelivery = new logs.ResourcePolicy(this, 'LogDeliveryPolicy', {
      resourcePolicyName: `${props.domainName}-opensearch-logs`,
      policyStatements: [
        new iam.PolicyStatement({
          principals: [new iam.ServicePrincipal('es.amazonaws.com')],
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [slowSearchLogs, slowIndexLogs, applicationLogs].map((group) => group.logGroupArn),
          conditions: { StringEquals: { 'aws:SourceAccount': stack.account }, ArnLike: { 'aws:SourceArn': domainArn } },
        }),
      ],
    });

    this.domain = new opensearch.Domain(this, 'Domain', {
      domainName: props.domainName,
      version: opensearch.EngineVersion.OPENSEARCH_2_19,
      capacity: {
        dataNodeInstanceType: props.instanceType,
        dataNodes: props.instanceCount,
        // Multi-AZ with standby needs three or more nodes of current generations; not for a t3 default.
        multiAzWithStandbyEnabled: false,
      },
      ebs: { volumeSize: props.volumeGiB, volumeType: ec2.EbsDeviceVolumeType.GP3 },
      zoneAwareness: availabilityZones > 1 ? { enabled: true, availabilityZoneCount: availabilityZones } : { enabled: false },
      enforceHttps: true,
      // TLS 1.2 minimum, restricted to forward-secret cipher suites (the Node TLS stack negotiates them).
      tlsSecurityPolicy: opensearch.TLSSecurityPolicy.TLS_1_2_PFS,
      nodeToNodeEncryption: true,
      encryptionAtRest: { enabled: true },
      logging: {
        slowSearchLogEnabled: true,
        slowSearchLogGroup: slowSearchLogs,
        slowIndexLogEnabled: true,
        slowIndexLogGroup: slowIndexLogs,
        appLogEnabled: true,
        appLogGroup: applicationLogs,
      },
      suppressLogsResourcePolicy: true,
      removalPolicy: props.removalPolicy,
    });
    this.domain.node.addDependency(logDelivery);
    this.endpointUrl = `https://${this.domain.domainEndpoint}`;
    this.replicas = props.instanceCount > 1 ? 1 : 0;

    // Set on the domain resource itself (CDK's addAccessPolicies would add a custom resource);
    // the ARN comes from the fixed name, so the policy does not refer to the domain it is part of.
    const cfnDomain = this.domain.node.defaultChild as opensearch.CfnDomain;
    cfnDomain.accessPolicies = Lazy.any({
      produce: () =>
        this.principals.length === 0
          ? undefined
          : new iam.PolicyDocument({
              statements: [
                new iam.PolicyStatement({
                  principals: this.principals.map((role) => new iam.ArnPrincipal(role.roleArn)),
                  actions: ['es:ESHttp*'],
                  resources: [`${domainArn}/*`],
                }),
              ],
            }).toJSON(),
    });

    Validations.of(this.domain).acknowledge(
      {
        id: 'AwsSolutions-OS1',
        reason: 'The Lambdas run outside a VPC; the domain is reached over HTTPS with SigV4 and its resource policy admits only the service roles.',
      },
      {
        id: 'AwsSolutions-OS3',
        reason: 'Access is restricted to IAM principals (the service Lambda roles) instead of IP allow-lists; Lambda has no fixed IPs.',
      },
      {
        id: 'AwsSolutions-OS4',
        reason: 'Dedicated master nodes triple the cost of the small default domain; raise searchInstanceCount and add masters for production scale.',
      },
      ...(availabilityZones > 1
        ? []
        : [
            {
              id: 'AwsSolutions-OS7',
              reason: 'Zone awareness needs two or more data nodes; the default is one node. It is enabled automatically when searchInstanceCount > 1.',
            },
          ]),
    );
  }

  /** Lets a role sign HTTP requests to the domain (index, search, manage its indices). */
  grantHttpAccess(role: iam.IRole): void {
    this.principals.push(role);
  }
}

/** Availability zones for a node count: zone awareness needs the count to divide evenly. */
function zoneCount(instanceCount: number): 1 | 2 | 3 {
  if (!Number.isInteger(instanceCount) || instanceCount < 1) throw new Error(`searchInstanceCount must be a positive integer, got ${instanceCount}`);
  if (instanceCount === 1) return 1;
  if (instanceCount % 3 === 0) return 3;
  if (instanceCount % 2 === 0) return 2;
  throw new Error(`searchInstanceCount ${instanceCount} cannot be spread evenly over 2 or 3 availability zones; use an even number or a multiple of 3`);
}
