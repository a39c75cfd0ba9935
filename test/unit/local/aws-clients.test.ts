import { NodeHttpHandler } from '@smithy/node-http-handler';
import { createLocalAwsClients } from '../../../bin/local/local-aws-clients';
import { createAwsClients, destroyAwsClients, LOCAL_CREDENTIALS } from '../../../functions/shared/aws/clients';

// Configuration only: no request is sent.
describe('AWS client factory', () => {
  it('points every client at its emulator with the one credential set they all accept', async () => {
    const clients = createLocalAwsClients({ dynamodb: 'http://127.0.0.1:1001', kinesis: 'http://127.0.0.1:1002', s3: 'http://127.0.0.1:1003' });
    try {
      for (const [client, port] of [
        [clients.dynamodb, 1001],
        [clients.kinesis, 1002],
        [clients.s3, 1003],
      ] as const) {
        expect(await client.config.credentials()).toMatchObject(LOCAL_CREDENTIALS);
        expect(await client.config.region()).toBe('us-east-1');
        const endpoint = await client.config.endpoint!();
        expect(`${endpoint.protocol}//${endpoint.hostname}:${endpoint.port}`).toBe(`http://127.0.0.1:${port}`);
        // HTTP/1.1 everywhere: kinesis-local fails with the SDK's HTTP/2 handler.
        expect(client.config.requestHandler).toBeInstanceOf(NodeHttpHandler);
        expect(await client.config.maxAttempts()).toBe(4);
      }
      expect(clients.s3.config.forcePathStyle).toBe(true);
      expect(clients.documents.config.translateConfig?.marshallOptions).toEqual({ removeUndefinedValues: true, convertClassInstanceToMap: true });
    } finally {
      destroyAwsClients(clients);
    }
  });

  it('leaves region and credentials to the Lambda environment when no endpoint is given', async () => {
    const clients = createAwsClients({ region: 'eu-west-1', maxAttempts: 3 });
    try {
      expect(await clients.kinesis.config.region()).toBe('eu-west-1');
      expect(await clients.kinesis.config.maxAttempts()).toBe(3);
      expect(clients.s3.config.forcePathStyle).toBe(false);
      expect(clients.dynamodb.config.endpoint).toBeUndefined();
      // Kinesis keeps the SDK's own (HTTP/2) handler on AWS; no local handler is bundled into Lambdas.
      expect(clients.kinesis.config.requestHandler).not.toBeInstanceOf(NodeHttpHandler);
    } finally {
      destroyAwsClients(clients);
    }
  });

  it('refuses emulator endpoints without the local HTTP/1.1 handler', () => {
    expect(() => createAwsClients({ endpoints: { kinesis: 'http://127.0.0.1:1' } })).toThrow(/createLocalAwsClients/);
  });
});
