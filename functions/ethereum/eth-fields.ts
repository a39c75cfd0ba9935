import type { IndexDocument } from '../search/port';
import type { EthAbiCatalog } from './eth-abi-catalog';
import { ethFieldsOf, jsonRpcCalls } from './json-rpc-decoding';

/**
 * Adds `eth` (functions/ethereum/json-rpc-decoding.ts) to the API calls of a batch whose request body
 * is an Ethereum JSON-RPC call. Only apps with such calls in the batch have their ABIs looked up.
 */
export async function withEthFields(catalog: Pick<EthAbiCatalog, 'lookupFor'>, documents: IndexDocument[]): Promise<IndexDocument[]> {
  const result = documents.slice();
  for (let i = 0; i < result.length; i += 1) {
    const document = result[i]!;
    const request = document.source['request'];
    const body = typeof request === 'object' && request !== null ? (request as Record<string, unknown>)['body'] : undefined;
    if (body === undefined || jsonRpcCalls(body).length === 0) continue;
    const fields = ethFieldsOf(body, await catalog.lookupFor(document.org_id, document.app_id));
    if (fields) result[i] = { ...document, source: { ...document.source, eth: fields } };
  }
  return result;
}
