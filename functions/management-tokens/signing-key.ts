import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

export type SigningKeyProvider = () => Promise<Buffer>;

/** Reads the token signing key from Secrets Manager once per Lambda instance. */
export function secretsManagerSigningKey(client: SecretsManagerClient, secretArn: string): SigningKeyProvider {
  let key: Promise<Buffer> | undefined;
  return () => {
    key ??= client
      .send(new GetSecretValueCommand({ SecretId: secretArn }))
      .then((r) => {
        if (!r.SecretString) throw new Error(`secret ${secretArn} has no string value`);
        return Buffer.from(r.SecretString, 'utf8');
      })
      .catch((error: unknown) => {
        key = undefined; // let the next request try again
        throw error;
      });
    return key;
  };
}
