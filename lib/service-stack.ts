import { CfnOutput, Fn, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { BatchUploads } from './batch-uploads';
import { BillingRun } from './billing-run';
import { CollectorApi } from './collector-api';
import { EmailSender } from './email-sender';
import { ExportWorker } from './export-worker';
import { settingVariables } from '../functions/definitions/environment';
import { GovernanceRefresh } from './governance-refresh';
import { AlertEvaluator } from './alert-evaluator';
import { IngestPipeline } from './ingest-pipeline';
import { ManagementApi } from './management-api';
import { Monitoring } from './monitoring';
import { SearchDomain } from './search-domain';
import { Storage } from './storage';

export interface UsageAnalyticsStackProps extends StackProps {
  /** Tables, buckets, stream, search domain and signing key on stack deletion. Default: RETAIN. */
  readonly dataRemovalPolicy?: RemovalPolicy;
}

/**
 * The whole service on AWS. Settings come from CDK context (`-c key=value` or cdk.json):
 *   searchInstanceType (t3.small.search), searchInstanceCount (1), searchVolumeGiB (10),
 *   searchDomainName (derived from the stack name), logLevel (info), logRetentionDays (30),
 *   collectorRateLimit (2000/s), collectorBurstLimit (4000), managementRateLimit (50/s),
 *   managementBurstLimit (100), alarmTopicArn (none: alarms do not notify), emailIdentity (none: behavioural
 *   emails may send from any SES identity of the account), slackWebhookHosts (none: alert Slack URLs
 *   must be on Slack's own hosts; comma-separated extra https hosts).
 */
export class UsageAnalyticsStack extends Stack {
  readonly storage: Storage;
  readonly search: SearchDomain;
  readonly pipeline: IngestPipeline;
  readonly collectorApi: CollectorApi;
  readonly uploads: BatchUploads;
  readonly managementApi: ManagementApi;
  readonly billingRun: BillingRun;
  readonly emails: EmailSender;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: UsageAnalyticsStackProps = {}) {
    super(scope, id, props);
    const context = new ContextSettings(this);
    const removalPolicy = props.dataRemovalPolicy ?? RemovalPolicy.RETAIN;
    const logLevel = context.string('logLevel', 'info');
    const logRetention = retentionDays(context.number('logRetentionDays', 30));

    this.storage = new Storage(this, 'Storage', { removalPolicy });
    this.search = new SearchDomain(this, 'Search', {
      domainName: context.optionalString('searchDomainName') ?? defaultDomainName(this),
      instanceType: context.string('searchInstanceType', 't3.small.search'),
      instanceCount: context.number('searchInstanceCount', 1),
      volumeGiB: context.number('searchVolumeGiB', 10),
      removalPolicy,
      logRetention,
    });
    this.pipeline = new IngestPipeline(this, 'Ingest', { storage: this.storage, search: this.search, logLevel, logRetention, removalPolicy });
    this.collectorApi = new CollectorApi(this, 'CollectorApi', {
      storage: this.storage,
      stream: this.pipeline.stream,
      logLevel,
      logRetention,
      rateLimit: context.number('collectorRateLimit', 2000),
      burstLimit: context.number('collectorBurstLimit', 4000),
    });
    this.uploads = new BatchUploads(this, 'Uploads', { storage: this.storage, stream: this.pipeline.stream, logLevel, logRetention });
    this.managementApi = new ManagementApi(this, 'ManagementApi', {
      storage: this.storage,
      stream: this.pipeline.stream,
      search: this.search,
      logLevel,
      logRetention,
      removalPolicy,
      rateLimit: context.number('managementRateLimit', 50),
      burstLimit: context.number('managementBurstLimit', 100),
    });
    new GovernanceRefresh(this, 'GovernanceRefresh', {
      storage: this.storage,
      search: this.search,
      logLevel,
      logRetention,
      refreshSeconds: context.number('governanceRefreshSeconds', 10),
    });
    new ExportWorker(this, 'Exports', { storage: this.storage, search: this.search, logLevel, logRetention });
    const emailIdentity = context.optionalString('emailIdentity');
    this.emails = new EmailSender(this, 'Emails', {
      storage: this.storage,
      search: this.search,
      logLevel,
      logRetention,
      tokenSigningSecret: this.managementApi.tokenSigningSecret,
      publicBaseUrl: this.managementApi.http.stage.url,
      ...(emailIdentity ? { emailIdentity } : {}),
    });
    const notificationsFrom = emailIdentity ? (emailIdentity.includes('@') ? emailIdentity : `notifications@${emailIdentity}`) : undefined;
    // Hosts besides Slack's own that alert Slack URLs may name (an operator's relay): checked on save and at send.
    const slackWebhookHosts = context.optionalString('slackWebhookHosts');
    new AlertEvaluator(this, 'Alerts', {
      storage: this.storage,
      search: this.search,
      logLevel,
      logRetention,
      emails: this.emails,
      ...(notificationsFrom ? { notificationsFrom } : {}),
      ...(slackWebhookHosts ? { slackWebhookHosts } : {}),
    });
    // A template's test message is sent by the management Lambda, through the same identity and configuration set.
    const management = this.managementApi.functions.management;
    if (slackWebhookHosts) management.function.addEnvironment(settingVariables.slackWebhookHosts, slackWebhookHosts);
    this.emails.grantSend(management.role);
    management.function.addEnvironment(settingVariables.sesConfigurationSet, this.emails.configurationSet.configurationSetName);
    // An alert run now through the API sends its emails as the scheduled evaluator does.
    if (notificationsFrom) management.function.addEnvironment(settingVariables.notificationsFrom, notificationsFrom);
    const billingReservedConcurrency = context.optionalString('billingReservedConcurrency');
    this.billingRun = new BillingRun(this, 'BillingRun', {
      storage: this.storage,
      stream: this.pipeline.stream,
      search: this.search,
      logLevel,
      logRetention,
      removalPolicy,
      ...(billingReservedConcurrency === undefined ? {} : { reservedConcurrency: context.number('billingReservedConcurrency', 1) }),
    });
    this.managementApi.serveProviderWebhooks(this.billingRun.providersSecret);
    const alarmTopicArn = context.optionalString('alarmTopicArn');
    this.monitoring = new Monitoring(this, 'Monitoring', {
      consumer: this.pipeline.consumer.function,
      collectorApi: this.collectorApi.http.api,
      billing: { function: this.billingRun.function.function, deadLetterQueue: this.billingRun.deadLetterQueue },
      ...(alarmTopicArn ? { alarmTopic: sns.Topic.fromTopicArn(this, 'AlarmTopic', alarmTopicArn) } : {}),
    });

    new CfnOutput(this, 'CollectorUrl', { value: this.collectorApi.http.stage.url, description: 'Base URL for SDKs (their baseUri)' });
    new CfnOutput(this, 'ManagementUrl', { value: this.managementApi.http.stage.url, description: 'Management API base URL' });
    new CfnOutput(this, 'ArchiveBucketName', {
      value: this.storage.buckets.archive.bucketName,
      description: 'Raw accepted batches, gzip NDJSON by app and date',
    });
    this.emails.identity?.dkimRecords.forEach(
      (record, i) =>
        new CfnOutput(this, `EmailDkimRecord${i + 1}`, {
          value: Fn.join(' ', ['CNAME', record.name, record.value]),
          description: 'Add to DNS so SES can send from the email identity',
        }),
    );
    new CfnOutput(this, 'EmailConfigurationSet', {
      value: this.emails.configurationSet.configurationSetName,
      description: 'SES configuration set of behavioural emails (bounces and complaints go to EventBridge)',
    });
    new CfnOutput(this, 'TokenSigningSecretArn', {
      value: this.managementApi.tokenSigningSecret.secretArn,
      description: 'Secret holding the management token signing key',
    });
    // The admin command (npm run admin -- bootstrap --table …) works on this table; the name is generated.
    new CfnOutput(this, 'ResourcesTableName', {
      value: this.storage.tables.resources.tableName,
      description: 'Resources table: the --table of npm run admin (bootstrap, users, org status)',
    });

    this.suppressCdkInternalFindings();
  }

  /** Findings on resources CDK itself adds for S3 notifications (a stack-wide singleton Lambda). */
  private suppressCdkInternalFindings(): void {
    const handler = this.node.tryFindChild('BucketNotificationsHandler050a0587b7544547bf325f094a3db834');
    if (!handler) return;
    Validations.of(handler).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: 'CDK-provided handler that sets the uploads bucket notification at deploy time; it uses the AWS basic execution policy for its own logs.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'CDK-provided handler: s3:PutBucketNotification has to be granted on the buckets it configures, which CDK expresses as *.',
      },
    );
  }
}

/** Typed reads of CDK context values, which arrive as strings from `-c` and as JSON from cdk.json. */
class ContextSettings {
  constructor(private readonly scope: Construct) {}

  optionalString(key: string): string | undefined {
    const value: unknown = this.scope.node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw new Error(`context ${key} must be a string, got ${JSON.stringify(value)}`);
    return value;
  }

  string(key: string, fallback: string): string {
    return this.optionalString(key) ?? fallback;
  }

  number(key: string, fallback: number): number {
    const value: unknown = this.scope.node.tryGetContext(key);
    if (value === undefined || value === null || value === '') return fallback;
    const parsed = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`context ${key} must be a positive number, got ${JSON.stringify(value)}`);
    return parsed;
  }
}

/** OpenSearch domain names: 3-28 characters, lower case, starting with a letter. */
/**
 * `<stack name, legal and cut to 19>-<8 hex digits of the stack's id>`. The domain is retained when
 * the stack is deleted (it holds the data), so a name fixed by the stack name alone would collide
 * with the retained domain when a stack of the same name is deployed again; the stack id is new
 * for every stack, and stable for the life of one.
 */
function defaultDomainName(stack: Stack): string {
  const base = `${
    stack.stackName
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-')
      .replace(/^[^a-z]+/, '')
      .replace(/-+/g, '-')
      .slice(0, 19)
      .replace(/-$/, '') || 'usage'
  }`;
  const stackUuid = Fn.select(2, Fn.split('/', stack.stackId));
  return Fn.join('-', [base, Fn.select(0, Fn.split('-', stackUuid))]);
}

function retentionDays(days: number): logs.RetentionDays {
  const allowed = Object.values(logs.RetentionDays).filter((value): value is number => typeof value === 'number');
  if (!allowed.includes(days)) throw new Error(`context logRetentionDays must be one of ${allowed.join(', ')}, got ${days}`);
  return days as logs.RetentionDays;
}
