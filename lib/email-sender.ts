import { Arn, Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import { tables } from '../functions/definitions/resources';
import { EmailSenderEnv, lambdaEnvironment, openSearchEnvironment, settingVariables } from '../functions/definitions/environment';
import type { SearchDomain } from './search-domain';
import { ServiceFunction } from './service-function';
import type { Storage } from './storage';

export interface EmailSenderProps {
  readonly storage: Storage;
  readonly search: SearchDomain;
  readonly logLevel: string;
  readonly logRetention: logs.RetentionDays;
  /** Signs unsubscribe links (a key derived from the management token key). */
  readonly tokenSigningSecret: secretsmanager.ISecret;
  /** The management API's URL: unsubscribe links point there. */
  readonly publicBaseUrl: string;
  /**
   * The SES identity templates send from (context `emailIdentity`): a domain (`example.com`) or an
   * address. When given, the stack creates it (its DKIM records are stack outputs to add to DNS) and
   * the Lambdas may send from it alone; otherwise from any identity verified in the account.
   */
  readonly emailIdentity?: string;
  /** How often the sender runs. Default: 15 minutes. */
  readonly every?: Duration;
}

/**
 * Behavioural emails on AWS: an EventBridge schedule runs the sender Lambda (each active template's
 * last closed period, through SES v2); a configuration set sends bounces and complaints to
 * EventBridge, whose rule hands them to the same Lambda to record (and to stop mailing the address).
 */
export class EmailSender extends Construct {
  readonly function: ServiceFunction;
  readonly configurationSet: ses.ConfigurationSet;
  readonly identity?: ses.EmailIdentity;
  readonly schedule: events.Rule;
  readonly feedback: events.Rule;

  constructor(scope: Construct, id: string, props: EmailSenderProps) {
    super(scope, id);
    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      // SES's own suppression list keeps addresses that bounced or complained out of every send.
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.configurationSet.addEventDestination('Feedback', {
      destination: ses.EventDestination.eventBus(events.EventBus.fromEventBusName(this, 'DefaultBus', 'default')),
      events: [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
    });
    if (props.emailIdentity) {
      this.identity = new ses.EmailIdentity(this, 'Identity', {
        identity: props.emailIdentity.includes('@') ? ses.Identity.email(props.emailIdentity) : ses.Identity.domain(props.emailIdentity),
        configurationSet: this.configurationSet,
      });
    }

    this.function = new ServiceFunction(this, 'Sender', {
      entry: 'functions/entries/email-sender.ts',
      description: 'behavioural emails per period through SES, cohort notifications (webhooks, emails); records bounces and complaints',
      memorySize: 512,
      timeout: Duration.minutes(10),
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      environment: {
        ...lambdaEnvironment(EmailSenderEnv, {
          ...openSearchEnvironment(props.search),
          [tables.resources.envVar]: props.storage.tables.resources.tableName,
          [settingVariables.tokenSigningSecretArn]: props.tokenSigningSecret.secretArn,
          [settingVariables.publicBaseUrl]: props.publicBaseUrl,
          [settingVariables.sesConfigurationSet]: this.configurationSet.configurationSetName,
          ...(props.emailIdentity
            ? { [settingVariables.notificationsFrom]: props.emailIdentity.includes('@') ? props.emailIdentity : `notifications@${props.emailIdentity}` }
            : {}),
        }),
      },
    });
    // Templates, cohorts (read), send records (claimed with a conditional put, settled with updates), unsubscribes (read, put on bounces), apps to send for (scan of keys);
    // cohort notifications: members as last seen (written, and deleted when they leave), changes and notifications, webhook channels (read).
    props.storage.tables.resources.grant(
      this.function.function,
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:Query',
      'dynamodb:Scan',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:ConditionCheckItem',
    );
    props.tokenSigningSecret.grantRead(this.function.function);
    // Cohort members and dynamic fields are searches.
    props.search.grantHttpAccess(this.function.role);
    this.grantSend(this.function.role);

    this.schedule = new events.Rule(this, 'Schedule', {
      description: 'Send behavioural emails whose period is over',
      schedule: events.Schedule.rate(props.every ?? Duration.minutes(15)),
      // A missed run is caught up by the next: sends are claimed per period, never repeated.
      targets: [new targets.LambdaFunction(this.function.function, { retryAttempts: 0 })],
    });
    this.feedback = new events.Rule(this, 'Feedback', {
      description: 'Record SES bounces and complaints of behavioural emails',
      eventPattern: { source: ['aws.ses'], detailType: ['Email Bounced', 'Email Complained'] },
      targets: [new targets.LambdaFunction(this.function.function, { retryAttempts: 4 })],
    });
  }

  /** SES v2 SendEmail from the stack's identity (or any of the account's) with its configuration set. */
  grantSend(role: iam.IRole): void {
    const stack = Stack.of(this);
    const identityArn = Arn.format({ service: 'ses', resource: 'identity', resourceName: this.identity ? this.identity.emailIdentityName : '*' }, stack);
    const configurationSetArn = Arn.format({ service: 'ses', resource: 'configuration-set', resourceName: this.configurationSet.configurationSetName }, stack);
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['ses:SendEmail', 'ses:SendRawEmail'], resources: [identityArn, configurationSetArn] }));
    if (!this.identity) {
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:${shown(stack.region, 'AWS::Region')}:${shown(stack.account, 'AWS::AccountId')}:identity/*]`,
        reason:
          'No emailIdentity context was given: templates may send from any identity verified in the account (their `from` decides). Set -c emailIdentity=<domain> to confine sending to one.',
      });
    }
  }
}

/** How cdk-nag writes a value in a finding's id: as it is, or `<AWS::Region>` while it is a deploy-time token. */
const shown = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
