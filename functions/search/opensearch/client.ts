import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Client } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws';

export interface OpenSearchClientOptions {
  /** https://... of the domain, or of a local cluster. */
  readonly endpoint: string;
  /** Required when signing: the domain's region. */
  readonly region?: string;
  /** Sign every request with SigV4 using the Lambda role's credentials (AWS); off for a plain local cluster. */
  readonly signWithIam: boolean;
}

/**
 * Requests one process keeps in flight to the domain at most (the rest wait for a socket): a Lambda's
 * queries are few, and this bounds what any one instance can put on the cluster at once.
 */
export const MAX_REQUESTS_IN_FLIGHT = 8;
const agent = { keepAlive: true, maxSockets: MAX_REQUESTS_IN_FLIGHT };

/** The client the OpenSearch adapter is given: built at the edge (a handler), never in domain code. */
export function createOpenSearchClient(options: OpenSearchClientOptions): Client {
  if (!options.signWithIam) return new Client({ node: options.endpoint, agent });
  if (options.region === undefined || options.region === '') {
    throw new Error('signing OpenSearch requests with IAM needs the region of the domain');
  }
  // One provider for the client's life: it caches credentials and refreshes them before they expire.
  const credentials = defaultProvider();
  return new Client({
    ...AwsSigv4Signer({ region: options.region, service: 'es', getCredentials: () => credentials() }),
    node: options.endpoint,
    agent,
  });
}
