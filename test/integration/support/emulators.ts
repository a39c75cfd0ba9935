import { randomBytes } from 'node:crypto';
import type { AwsEndpoints } from '../../../functions/shared/aws/clients';

/** Environment variables through which global-setup.ts hands the emulators' endpoints to test files. */
export const ENDPOINT_ENV = {
  dynamodb: 'LOCAL_DYNAMODB_ENDPOINT',
  kinesis: 'LOCAL_KINESIS_ENDPOINT',
  s3: 'LOCAL_S3_ENDPOINT',
} as const satisfies Record<keyof AwsEndpoints, string>;

/** The endpoints of the emulators started once for this test run. */
export function emulatorEndpoints(): Required<AwsEndpoints> {
  const read = (service: keyof AwsEndpoints): string => {
    const value = process.env[ENDPOINT_ENV[service]];
    if (!value)
      throw new Error(
        `${ENDPOINT_ENV[service]} is not set: run integration tests through jest's 'integration' project, whose globalSetup starts the emulators`,
      );
    return value;
  };
  return { dynamodb: read('dynamodb'), kinesis: read('kinesis'), s3: read('s3') };
}

/**
 * A resource-name prefix of its own for each caller (test file or test), so tests sharing the
 * emulators cannot see each other's tables, streams or buckets. Lower case and short, so it also
 * makes legal S3 bucket names: e.g. `it-collector-k3j9x2-`.
 */
export function uniquePrefix(name: string): string {
  const label =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 20)
      .replace(/-+$/, '') || 'test';
  const suffix = BigInt(`0x${randomBytes(5).toString('hex')}`)
    .toString(36)
    .padStart(8, '0')
    .slice(0, 8);
  return `it-${label}-${suffix}-`;
}
