import { buckets, ingestStream, tables, type BucketKey, type TableKey } from '../definitions/resources';
import { createAwsClients } from '../shared/aws/clients';
import type { ServiceStoresInput, StorageNames, StoreSettings } from './ingest-stores';

/**
 * A Lambda's physical resource names, read from its validated environment. Each Lambda is given
 * only the names it needs; a store built on a name it was not given fails at once, naming the variable.
 */
export function storageNamesFromEnv(env: Readonly<Record<string, unknown>>): StorageNames {
  const named = (envVar: string): string => {
    const value = env[envVar];
    if (typeof value !== 'string' || value === '') throw new Error(`${envVar} is not set for this Lambda`);
    return value;
  };
  const lazyNames = <K extends string>(definitions: Record<K, { envVar: string }>): Record<K, string> => {
    const names = {} as Record<K, string>;
    for (const key of Object.keys(definitions) as K[]) Object.defineProperty(names, key, { enumerable: true, get: () => named(definitions[key].envVar) });
    return names;
  };
  return {
    tables: lazyNames<TableKey>(tables),
    buckets: lazyNames<BucketKey>(buckets),
    get stream() {
      return named(ingestStream.envVar);
    },
  };
}

/** What a Lambda's stores are built from: AWS clients in its region, names from its environment. */
export function lambdaStoresInput(env: Readonly<Record<string, unknown>> & { AWS_REGION: string }, settings: StoreSettings = {}): ServiceStoresInput {
  return { clients: createAwsClients({ region: env.AWS_REGION }), names: storageNamesFromEnv(env), settings };
}
