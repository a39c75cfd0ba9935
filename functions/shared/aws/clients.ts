/**
 * The one factory of AWS SDK v3 clients. Lambda entry files call it without endpoints (real AWS,
 * credentials and region from the Lambda environment); the local runtime and the integration tests
 * pass the emulators' endpoints. Domain code never calls it: it receives the clients.
 *
 * The per-service factories are exported too, so an entry file that needs only one service (the
 * collector needs Kinesis and DynamoDB) does not pull the S3 client into its bundle.
 *
 * The HTTP handler for emulators (plain HTTP/1.1) is handed in by the local runtime
 * (bin/local/local-aws-clients.ts), so Lambda bundles never carry @smithy/node-http-handler: on AWS
 * each client builds its own default handler from the options below.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KinesisClient } from '@aws-sdk/client-kinesis';
import { S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** Endpoints of the local emulators; a service without one is reached on real AWS. */
export interface AwsEndpoints {
  dynamodb?: string;
  kinesis?: string;
  s3?: string;
}

export interface AwsClients {
  dynamodb: DynamoDBClient;
  documents: DynamoDBDocumentClient;
  kinesis: KinesisClient;
  s3: S3Client;
}

export interface AwsClientOptions {
  /** Defaults to the SDK's own resolution (AWS_REGION) on AWS, and to us-east-1 for emulators. */
  region?: string;
  endpoints?: AwsEndpoints;
  /** Total attempts per call, including the first (SDK standard retry mode, with backoff). */
  maxAttempts?: number;
  /** Keep-alive sockets per client: enough for the consumer's parallel conditional puts. */
  maxSockets?: number;
  /**
   * Builds the HTTP/1.1 handler emulators need (kinesis-local fails on the Kinesis client's default
   * HTTP/2 handler). Required with endpoints; see bin/local/local-aws-clients.ts.
   */
  httpHandler?: (settings: HttpHandlerSettings) => unknown;
}

/** Connection settings every client gets, whichever handler carries them. */
export interface HttpHandlerSettings {
  httpAgent: HttpAgent;
  httpsAgent: HttpsAgent;
  connectionTimeout: number;
  requestTimeout: number;
}

/**
 * One credential set every emulator accepts: s3rver checks signatures against S3RVER/S3RVER,
 * DynamoDB Local wants an alphanumeric key id, kinesis-local takes anything.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

const LOCAL_REGION = 'us-east-1';
const DEFAULT_MAX_ATTEMPTS = 4;
const DEFAULT_MAX_SOCKETS = 64;

export function createAwsClients(options: AwsClientOptions = {}): AwsClients {
  const dynamodb = createDynamoDbClient(options);
  return {
    dynamodb,
    documents: createDocumentClient(dynamodb),
    kinesis: createKinesisClient(options),
    s3: createS3Client(options),
  };
}

export function createDynamoDbClient(options: AwsClientOptions = {}): DynamoDBClient {
  return new DynamoDBClient(baseConfig(options, options.endpoints?.dynamodb, 'dynamodb'));
}

/**
 * Plain JavaScript values in and out; `undefined` members are dropped instead of failing the write.
 * convertClassInstanceToMap: an object with an own `constructor` member (customer data such as
 * `{"constructor": 5}`) is a map, not a class instance the marshaller refuses; the one shape it
 * still misreads is refused at the door (shared/http/reserved-members.ts).
 */
export function createDocumentClient(dynamodb: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(dynamodb, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true },
    unmarshallOptions: { wrapNumbers: false },
  });
}

export function createKinesisClient(options: AwsClientOptions = {}): KinesisClient {
  return new KinesisClient(baseConfig(options, options.endpoints?.kinesis, 'kinesis'));
}

export function createS3Client(options: AwsClientOptions = {}): S3Client {
  const endpoint = options.endpoints?.s3;
  return new S3Client({
    ...baseConfig(options, endpoint, 's3'),
    // Checksums only where S3 requires them, on AWS too: by default the SDK signs a CRC32 into
    // pre-signed upload URLs, computed over the empty body it presigns, so the client's real PUT
    // would be refused (and s3rver and other S3-compatible stores know nothing of flexible checksums).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // s3rver serves buckets by path only.
    ...(endpoint === undefined ? {} : { forcePathStyle: true }),
  });
}

/** Closes every client's pooled sockets (an emulator waits for open connections before it shuts down). */
export function destroyAwsClients(clients: AwsClients): void {
  clients.documents.destroy();
  clients.dynamodb.destroy();
  clients.kinesis.destroy();
  clients.s3.destroy();
}

interface BaseConfig {
  region?: string;
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  maxAttempts: number;
  // The SDK takes a handler instance or the options to build its default one; each client types it its own way.
  // biome-ignore lint/suspicious/noExplicitAny: one config object serves the DynamoDB, Kinesis and S3 clients
  requestHandler?: any;
}

function baseConfig(options: AwsClientOptions, endpoint: string | undefined, service: 'dynamodb' | 'kinesis' | 's3'): BaseConfig {
  const maxSockets = options.maxSockets ?? DEFAULT_MAX_SOCKETS;
  const settings: HttpHandlerSettings = {
    httpAgent: new HttpAgent({ keepAlive: true, maxSockets }),
    httpsAgent: new HttpsAgent({ keepAlive: true, maxSockets }),
    connectionTimeout: 5_000,
    // Idle-socket limit: a wedged emulator or network path fails the call instead of hanging it.
    requestTimeout: 60_000,
  };
  if (endpoint !== undefined && !options.httpHandler) {
    throw new Error(`an endpoint for ${service} needs options.httpHandler (use createLocalAwsClients from bin/local/local-aws-clients)`);
  }
  // On AWS, Kinesis keeps its default HTTP/2 handler; DynamoDB and S3 get keep-alive agents and timeouts.
  const requestHandler = options.httpHandler ? options.httpHandler(settings) : service === 'kinesis' ? undefined : settings;
  const config: BaseConfig = { maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS, requestHandler };
  if (endpoint !== undefined) {
    config.endpoint = endpoint;
    config.credentials = { ...LOCAL_CREDENTIALS };
    config.region = options.region ?? LOCAL_REGION;
  } else if (options.region !== undefined) {
    config.region = options.region;
  }
  return config;
}
