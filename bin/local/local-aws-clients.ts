import { NodeHttpHandler } from '@smithy/node-http-handler';
import { createAwsClients, type AwsClientOptions, type AwsClients, type AwsEndpoints } from '../../functions/shared/aws/clients';

/**
 * AWS SDK clients for the emulators: plain HTTP/1.1 (kinesis-local fails on the Kinesis client's
 * default HTTP/2 handler), emulator credentials, path-style S3.
 */
export function createLocalAwsClients(endpoints: AwsEndpoints, options: Omit<AwsClientOptions, 'endpoints' | 'httpHandler'> = {}): AwsClients {
  return createAwsClients({ ...options, endpoints, httpHandler: (settings) => new NodeHttpHandler(settings) });
}
