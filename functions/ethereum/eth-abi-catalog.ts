import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Abi } from 'viem';
import { appRulesPartition } from '../resources/keys';
import type { AbiLookup } from './json-rpc-decoding';
import { queryItems } from '../shared/aws/query-pages';

/** Sort-key prefix of stored ABIs in the app's partition of the resources table. */
export const ETH_ABI_PREFIX = 'ETH_ABI';
/** The address key of an ABI stored for any contract. */
export const ANY_CONTRACT = 'any';

/**
 * The consumer's view of an app's stored ABIs: read once a minute per app (an ABI posted now
 * decodes calls indexed from the next minute on), and only for apps whose events carry JSON-RPC
 * calls at all.
 */
export class EthAbiCatalog {
  private readonly cache = new Map<string, { at: number; lookup: Promise<AbiLookup> }>();

  constructor(
    private readonly documents: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  lookupFor(orgId: string, appId: string): Promise<AbiLookup> {
    const key = `${orgId}#${appId}`;
    const cached = this.cache.get(key);
    if (cached && this.now() - cached.at < this.ttlMs) return cached.lookup;
    const lookup = this.read(orgId, appId);
    this.cache.set(key, { at: this.now(), lookup });
    // A failed read is not kept: the next batch tries again.
    lookup.catch(() => this.cache.delete(key));
    return lookup;
  }

  private async read(orgId: string, appId: string): Promise<AbiLookup> {
    const byAddress = new Map<string, Abi>();
    for await (const item of queryItems(this.documents, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': appRulesPartition(orgId, appId), ':prefix': `${ETH_ABI_PREFIX}#` },
    })) {
      if (!Array.isArray(item['abi'])) continue;
      const address = typeof item['address'] === 'string' ? item['address'].toLowerCase() : ANY_CONTRACT;
      byAddress.set(address, item['abi'] as Abi);
    }
    return (address) => (address !== undefined ? byAddress.get(address.toLowerCase()) : undefined) ?? byAddress.get(ANY_CONTRACT);
  }
}
