import { Duration, Validations, type RemovalPolicy } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kinesis from 'aws-cdk-lib/aws-kinesis';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { buckets, ingestStream, tables } from '../functions/definitions/resources';
import {
  MANAGEMENT_DEFAULT_LAMBDA,
  MANAGEMENT_PATH_PREFIXES,
  routesOf,
  type HttpLambdaName,
  type HttpMethod,
  type ManagementLambdaName,
  type RouteDefinition,
} from '../functions/definitions/routes';
import { ServiceHttpApi } from './http-api';
import { grantListBucket, grantObjectAccess } from './object-access';
import type { SearchDomain } from './search-domain';
import { ServiceFunction } from './service-function';
import type { Storage } from './storage';
import {
  lambdaEnvironment,
  openSearchEnvironment,
  settingVariables,
  ManagementApiEnv,
  SearchApiEnv,
  SharedViewApiEnv,
} from '../functions/definitions/environment';
import { consoleBundlingCommands } from './console-bundling';

/** One API Gateway route of the management API and the Lambda behind it. */
export interface GatewayRoute {
  readonly method: HttpMethod | 'ANY';
  readonly path: string;
  readonly lambda: HttpLambdaName;
}

export { MANAGEMENT_DEFAULT_LAMBDA, type ManagementLambdaName };

// API Gateway documents its path-part characters only for REST APIs (letters, digits, `.`, `_`,
// `-`, `:`), and HTTP APIs reject route keys with "One or more path parts appear to be invalid"
// without documenting a wider set; nothing states that `~` is accepted. The spec's paths use `~`
// (`/search/~/search/events`, `/~/billing/meters`), so a path with such a segment is routed by the
// greedy route of its literal prefix (`ANY /search/{proxy+}`, `ANY /v1/search/{proxy+}`) and the
// Lambda matches the exact path with the shared route table, as it does locally.
const ROUTABLE_LITERAL = /^[A-Za-z0-9._-]+$/;
const ROUTABLE_PARAMETER = /^\{[A-Za-z0-9_]+\+?\}$/;

/**
 * The API Gateway routes that deliver every management route of the route table (under each of
 * MANAGEMENT_PATH_PREFIXES) to its Lambda: the route itself where API Gateway can express its path,
 * otherwise a greedy route on the path's routable prefix.
 */
export function managementGatewayRoutes(definitions: readonly RouteDefinition[] = routesOf({ api: 'management' })): GatewayRoute[] {
  const byKey = new Map<string, GatewayRoute>();
  for (const definition of definitions) {
    for (const prefix of definition.exactPath ? [''] : MANAGEMENT_PATH_PREFIXES) {
      const route = gatewayRouteFor(definition, `${prefix}${definition.path}`);
      if (!route) continue;
      const key = `${route.method} ${route.path}`;
      const existing = byKey.get(key);
      if (existing && existing.lambda !== route.lambda) {
        throw new Error(`${key} would have to reach both the ${existing.lambda} and the ${route.lambda} Lambda; give their routes distinct routable prefixes`);
      }
      byKey.set(key, route);
    }
  }
  return [...byKey.values()];
}

function gatewayRouteFor(definition: RouteDefinition, path: string): GatewayRoute | undefined {
  const segments = path.split('/').slice(1);
  const firstUnroutable = segments.findIndex((segment) => !ROUTABLE_LITERAL.test(segment) && !ROUTABLE_PARAMETER.test(segment));
  if (firstUnroutable === -1) return { method: definition.method, path, lambda: definition.lambda };
  if (firstUnroutable === 0) {
    if (definition.lambda === MANAGEMENT_DEFAULT_LAMBDA) return undefined; // `$default` delivers it
    throw new Error(`${definition.method} ${path}: no routable prefix, and $default goes to the ${MANAGEMENT_DEFAULT_LAMBDA} Lambda, not ${definition.lambda}`);
  }
  return { method: 'ANY', path: `/${segments.slice(0, firstUnroutable).join('/')}/{proxy+}`, lambda: definition.lambda };
}

export interface ManagementApiProps {
  readonly storage: Storage;
  /** Profile writes with a management token (POST /search/~/users …) go onto the ingest stream. */
  readonly stream: kinesis.IStream;
  readonly search: SearchDomain;
  readonly logLevel: string;
  readonly logRetention: logs.RetentionDays;
  readonly removalPolicy: RemovalPolicy;
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/**
 * The management API: an HTTP API with routes from the shared route table, each to the Lambda the
 * table names (search: `/search/~/...`; management: OAuth, tokens, resources, the OpenAPI document,
 * and `$default`), and the key that signs management tokens.
 */
export class ManagementApi extends Construct {
  readonly http: ServiceHttpApi;
  readonly tokenSigningSecret: secretsmanager.Secret;
  readonly functions: Record<ManagementLambdaName, ServiceFunction>;

  constructor(scope: Construct, id: string, props: ManagementApiProps) {
    super(scope, id);

    this.tokenSigningSecret = new secretsmanager.Secret(this, 'TokenSigningSecret', {
      description: 'HMAC key that signs and verifies management API tokens',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.tokenSigningSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotating the signing key would invalidate every issued management token at once; rotate it deliberately, together with re-issuing tokens.',
    });

    const search = new ServiceFunction(this, 'Search', {
      entry: 'functions/entries/search-api.ts',
      description: 'management API: search, count and get events and profiles',
      memorySize: 512,
      timeout: Duration.seconds(29),
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      environment: {
        ...lambdaEnvironment(SearchApiEnv, {
          ...openSearchEnvironment(props.search),
          [tables.profiles.envVar]: props.storage.tables.profiles.tableName,
          [buckets.profileDocuments.envVar]: props.storage.buckets.profileDocuments.bucketName,
          [tables.resources.envVar]: props.storage.tables.resources.tableName,
          [ingestStream.envVar]: props.stream.streamName,
          [settingVariables.tokenSigningSecretArn]: this.tokenSigningSecret.secretArn,
        }),
      },
    });
    // Profile writes publish to the ingest stream like the collector: PutRecords only.
    search.function.addToRolePolicy(new iam.PolicyStatement({ actions: ['kinesis:PutRecords'], resources: [props.stream.streamArn] }));
    this.tokenSigningSecret.grantRead(search.function);
    // Token revocations, org status and the per-org rate counter live in the resources table.
    props.storage.tables.resources.grant(search.function, 'dynamodb:GetItem', 'dynamodb:UpdateItem');
    // Deleting a user or company deletes its stored profile (DeleteItem), or the next update would revive it.
    props.storage.tables.profiles.grant(search.function, 'dynamodb:DeleteItem');
    // Deleting a user or company also deletes its overflow document, if it has one.
    grantObjectAccess(
      search.role,
      props.storage.buckets.profileDocuments,
      ['s3:DeleteObject'],
      'profiles/*',
      'Overflow documents are keyed by tenant, kind and a hash of the profile id.',
    );
    props.search.grantHttpAccess(search.role);

    // Shared views and customer pages answer people without an account: the role reads token records,
    // workspaces, dashboards, meters, prices and revocations (GetItem, BatchGetItem, Query), writes
    // spend caps (PutItem, UpdateItem, DeleteItem; UpdateItem also counts the org's rate), reads balances
    // and billing run state (GetItem, Query on the billing table), and searches. Nothing else.
    const sharedViews = new ServiceFunction(this, 'SharedViews', {
      entry: 'functions/entries/shared-views-api.ts',
      description: 'management API: public and embedded workspaces and dashboards (shared-view tokens)',
      memorySize: 512,
      timeout: Duration.seconds(29),
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      environment: {
        ...lambdaEnvironment(SharedViewApiEnv, {
          ...openSearchEnvironment(props.search),
          [tables.resources.envVar]: props.storage.tables.resources.tableName,
          [tables.billing.envVar]: props.storage.tables.billing.tableName,
          [settingVariables.tokenSigningSecretArn]: this.tokenSigningSecret.secretArn,
        }),
      },
    });
    this.tokenSigningSecret.grantRead(sharedViews.function);
    props.storage.tables.resources.grant(
      sharedViews.function,
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:Query',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
      'dynamodb:ConditionCheckItem',
    );
    props.storage.tables.billing.grant(sharedViews.function, 'dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query');
    props.search.grantHttpAccess(sharedViews.role);

    const management = new ServiceFunction(this, 'Management', {
      entry: 'functions/entries/management-api.ts',
      description: 'management API: OAuth, access tokens, apps and managed resources; the web console',
      afterBundling: consoleBundlingCommands,
      memorySize: 512,
      timeout: Duration.seconds(29),
      logLevel: props.logLevel,
      logRetention: props.logRetention,
      environment: {
        ...lambdaEnvironment(ManagementApiEnv, {
          ...openSearchEnvironment(props.search),
          [tables.resources.envVar]: props.storage.tables.resources.tableName,
          [tables.billing.envVar]: props.storage.tables.billing.tableName,
          [buckets.exports.envVar]: props.storage.buckets.exports.bucketName,
          [settingVariables.tokenSigningSecretArn]: this.tokenSigningSecret.secretArn,
          // A replacement's corrected events take the collector's path: dedup claims read, the stream written.
          [tables.dedup.envVar]: props.storage.tables.dedup.tableName,
          [ingestStream.envVar]: props.stream.streamName,
        }),
      },
    });
    this.tokenSigningSecret.grantRead(management.function);
    props.storage.tables.dedup.grant(management.function, 'dynamodb:BatchGetItem');
    management.function.addToRolePolicy(new iam.PolicyStatement({ actions: ['kinesis:PutRecords'], resources: [props.stream.streamArn] }));
    // Export parts: download URLs are signed with this role (GetObject), and a cancel deletes the parts (list, delete).
    grantObjectAccess(
      management.role,
      props.storage.buckets.exports,
      ['s3:GetObject', 's3:DeleteObject'],
      'exports/*',
      'Export parts are keyed by tenant, job id and part number.',
    );
    grantListBucket(management.role, props.storage.buckets.exports);
    props.storage.tables.resources.grantReadWriteData(management.function);
    props.storage.tables.billing.grantReadWriteData(management.function);
    // Cohort membership of governance rules is a search over the profile indexes.
    props.search.grantHttpAccess(management.role);
    this.functions = { search, 'shared-views': sharedViews, management };

    const integrations: Record<ManagementLambdaName, HttpLambdaIntegration> = {
      search: new HttpLambdaIntegration('SearchIntegration', search.function),
      'shared-views': new HttpLambdaIntegration('SharedViewsIntegration', sharedViews.function),
      management: new HttpLambdaIntegration('ManagementIntegration', management.function),
    };
    this.http = new ServiceHttpApi(this, 'Http', {
      description: 'Usage analytics management API',
      allowHeaders: ['content-type', 'authorization'],
      allowMethods: [apigw.CorsHttpMethod.ANY],
      rateLimit: props.rateLimit,
      burstLimit: props.burstLimit,
      logRetention: props.logRetention,
      defaultIntegration: integrations[MANAGEMENT_DEFAULT_LAMBDA],
    });
    for (const route of managementGatewayRoutes()) {
      if (route.lambda === 'collector') throw new Error(`${route.method} ${route.path}: the collector Lambda does not serve the management API`);
      const integration = integrations[route.lambda];
      this.http.api.addRoutes({ path: route.path, methods: [apigw.HttpMethod[route.method]], integration });
    }
    this.http.suppressAuthorizerFinding(
      'Management requests carry a signed bearer token (with scopes) verified by the Lambda with the shared auth module; the same check runs in local mode, where there is no API Gateway.',
    );
  }

  /**
   * Providers' webhooks (POST /public/providers/{provider}/webhooks/{orgId}/{appId}) on the management
   * Lambda: it reads the apps' connections (the billing run's providers secret, on the first webhook)
   * to check an event's signature and read the object it names, and writes what the sync writes:
   * catalog items (resources table, granted already) and companies and subscriptions (the ingest stream).
   */
  serveProviderWebhooks(providersSecret: secretsmanager.ISecret): void {
    const fn = this.functions.management.function;
    fn.addEnvironment(settingVariables.billingProvidersSecretArn, providersSecret.secretArn);
    // The ingest stream is the function's already (a replacement's events take the same path).
    providersSecret.grantRead(fn);
  }
}
