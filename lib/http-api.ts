import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CORS_HEADERS } from '../functions/shared/http/json-result';

export interface ServiceHttpApiProps {
  readonly description: string;
  /** Request headers browsers may send cross-origin. */
  readonly allowHeaders: string[];
  readonly allowMethods: apigw.CorsHttpMethod[];
  /** Steady-state requests per second for the whole stage. */
  readonly rateLimit: number;
  readonly burstLimit: number;
  readonly logRetention: logs.RetentionDays;
  /** Target of the `$default` route: whatever no other route matches. */
  readonly defaultIntegration: apigw.HttpRouteIntegration;
}

/**
 * An HTTP API as both of the service's APIs use it: open CORS (the spec's
 * `Access-Control-Allow-Origin: *`), one auto-deployed `$default` stage with JSON access logs and
 * stage-wide throttling. Authentication happens in the Lambdas (collector application id, signed
 * management tokens), which share one auth module with the local runtime.
 */
export class ServiceHttpApi extends Construct {
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ServiceHttpApiProps) {
    super(scope, id);

    this.api = new apigw.HttpApi(this, 'Api', {
      description: props.description,
      createDefaultStage: false,
      defaultIntegration: props.defaultIntegration,
      corsPreflight: {
        allowOrigins: ['*'],
        allowHeaders: props.allowHeaders,
        allowMethods: props.allowMethods,
        // API Gateway replaces the Lambda's CORS headers with these: expose the same ones it sets.
        exposeHeaders: CORS_HEADERS['access-control-expose-headers']!.split(',').map((name) => name.trim()),
        maxAge: Duration.days(1),
      },
    });

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: props.rateLimit, burstLimit: props.burstLimit },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            method: '$context.httpMethod',
            path: '$context.path',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            integrationLatency: '$context.integrationLatency',
            responseLatency: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });
  }

  /** Every route authenticates in its Lambda; API Gateway authorizers would duplicate that check. */
  suppressAuthorizerFinding(reason: string): void {
    Validations.of(this.api).acknowledge({ id: 'AwsSolutions-APIG4', reason });
  }
}
