import * as path from 'node:path';
import { type Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** The repository root: Lambda entries are given relative to it, and its lock file pins the bundle. */
export const REPO_ROOT = path.resolve(__dirname, '..');

export interface ServiceFunctionProps {
  /** Entry file relative to the repository root; it exports `handler`. */
  readonly entry: string;
  readonly description: string;
  /** Application settings; LOG_LEVEL is added here. */
  readonly environment: Record<string, string>;
  readonly logLevel: string;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly logRetention: logs.RetentionDays;
  /** Commands run after esbuild, to put more files beside the bundle (the management Lambda's console). */
  readonly afterBundling?: (inputDir: string, outputDir: string) => string[];
}

/**
 * One service Lambda, built the same way for every entry: Node 22 on arm64, bundled by a local
 * esbuild, X-Ray tracing, its own log group with a retention, and its own role that may write
 * only to that log group. Permissions on data are granted by the construct that owns the data.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      // Logs are diagnostics, not data: they go with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // An explicit role instead of AWSLambdaBasicExecutionRole, whose log permissions cover every log group.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.description}`,
    });
    this.logGroup.grantWrite(this.role);

    // Source maps cost every cold start 20-30 ms of module init (npm run bench -- bundle): off unless
    // the context asks for them (-c lambdaSourceMaps=true), for stack traces into the TypeScript.
    const sourceMaps = ['true', true].includes(this.node.tryGetContext('lambdaSourceMaps'));
    this.function = new NodejsFunction(this, 'Function', {
      entry: path.join(REPO_ROOT, props.entry),
      handler: 'handler',
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      tracing: lambda.Tracing.ACTIVE,
      role: this.role,
      logGroup: this.logGroup,
      // SDK v3 keeps connections alive by itself; the v2-era variable is not needed.
      awsSdkConnectionReuse: false,
      environment: {
        ...props.environment,
        LOG_LEVEL: props.logLevel,
        // With source maps, stack traces point into the TypeScript sources; a function's own
        // NODE_OPTIONS (V8 settings) are added.
        ...nodeOptions(sourceMaps, props.environment?.['NODE_OPTIONS']),
      },
      depsLockFilePath: path.join(REPO_ROOT, 'package-lock.json'),
      projectRoot: REPO_ROOT,
      bundling: {
        format: OutputFormat.CJS,
        target: 'node22',
        minify: true,
        sourceMap: sourceMaps,
        // The AWS SDK is bundled at the lock file's versions: the SDK that runs is the one the tests
        // ran, not whatever the Lambda runtime ships. Module init measured the same or faster than
        // loading the runtime's copy (npm run bench -- bundle).
        // DuckDB is the local search backend only: a native module that must never be bundled
        // (and is never loaded on AWS, where SEARCH_BACKEND=opensearch).
        externalModules: ['@duckdb/node-api'],
        ...(props.afterBundling ? { commandHooks: { beforeBundling: () => [], beforeInstall: () => [], afterBundling: props.afterBundling } } : {}),
      },
    });

    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray PutTraceSegments/PutTelemetryRecords do not support resource-level permissions (tracing is on).',
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'The service targets nodejs22.x on purpose (ARCHITECTURE.md: code runs on Node 20 locally and 22 on Lambda); move with the project, not per function.',
    });
  }
}

function nodeOptions(sourceMaps: boolean, own: string | undefined): Record<string, string> {
  const options = [sourceMaps ? '--enable-source-maps' : undefined, own].filter(Boolean).join(' ');
  return options ? { NODE_OPTIONS: options } : {};
}
