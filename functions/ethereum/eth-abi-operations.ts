import { parseAbiItem, toFunctionSignature, type AbiFunction } from 'viem';
import { EthAbiCreate, type EthAbiDocument } from '../../schemas/resources/eth-abi';
import { appRulesPartition } from '../resources/keys';
import { contextOf, listOptions, type ResourceContext } from '../resources/crud-operations';
import { nextPageHeader } from '../resources/references';
import type { ResourceOperationTable } from '../resources/resource-deps';
import type { ResourceStore } from '../resources/resource-store';
import { ValidationError, type FieldIssue } from '../shared/errors';
import { readJsonBody } from '../shared/http/body';
import { ANY_CONTRACT, ETH_ABI_PREFIX } from './eth-abi-catalog';
import { parseBody } from '../shared/invalid-input';

const MAX_ABI_BODY_BYTES = 1_000_000;

/**
 * Contract ABIs (`/~/eth_abi`, scope `create:eth_abi`, the only one the interface gives them): one
 * per contract address, or one for any contract. The ingest consumer decodes Ethereum JSON-RPC calls
 * in API calls with them (functions/ethereum/json-rpc-decoding.ts). Posting an ABI for an address
 * that has one replaces it.
 */
export function ethAbiOperations(deps: { resources: ResourceStore; now?: () => Date }): ResourceOperationTable {
  const now = deps.now ?? (() => new Date());
  const at = (ctx: Pick<ResourceContext, 'orgId' | 'appId'>) => ({ partition: appRulesPartition(ctx.orgId, ctx.appId), prefix: ETH_ABI_PREFIX });
  return {
    'ethAbi.create': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const body = readJsonBody(request, MAX_ABI_BODY_BYTES);
      const input = parseBody(EthAbiCreate, Array.isArray(body) ? { abi: body } : body);
      const functions = checkedFunctions(input.abi);
      const address = input.address?.toLowerCase() ?? null;
      // One ABI per address: the address (or `any`) is its id, so a second post, even a concurrent one, replaces the first.
      const id = address ?? ANY_CONTRACT;
      const document = (createdAt: string): EthAbiDocument => ({
        _id: id,
        org_id: ctx.orgId,
        app_id: ctx.appId,
        address,
        ...(input.name ? { name: input.name } : {}),
        abi: input.abi,
        functions,
        created_at: createdAt,
        modified_at: ctx.now,
      });
      if (await deps.resources.create(at(ctx), id, document(ctx.now))) return { status: 201, body: document(ctx.now) };
      const replaced = await deps.resources.update(at(ctx), id, 'ABI', (current, modifiedAt) => ({
        ...document(typeof current['created_at'] === 'string' ? current['created_at'] : ctx.now),
        modified_at: modifiedAt,
      }));
      return { status: 200, body: replaced };
    },
    'ethAbi.list': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const page = await deps.resources.list(at(ctx), listOptions(request.query));
      return { status: 200, body: page.items.map((item) => item.document), headers: nextPageHeader(page.nextBeforeId) };
    },
    'ethAbi.delete': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      await deps.resources.delete(at(ctx), request.pathParams['id'] ?? '', 'ABI');
      return { status: 204 };
    },
  };
}

/** Every function item must have a selector (a name and typed inputs); other items (events, errors) are kept as they are. */
function checkedFunctions(abi: readonly Record<string, unknown>[]): number {
  const issues: FieldIssue[] = [];
  let functions = 0;
  abi.forEach((item, i) => {
    const type = item['type'] ?? 'function';
    if (typeof type !== 'string') issues.push({ field: `abi[${i}].type`, reason: 'must be a string' });
    if (type !== 'function') return;
    if (typeof item['name'] !== 'string' || item['name'] === '') return issues.push({ field: `abi[${i}].name`, reason: 'a function needs a name' });
    if (!Array.isArray(item['inputs'])) return issues.push({ field: `abi[${i}].inputs`, reason: 'a function needs its inputs (an array, empty for none)' });
    try {
      // Formatted as Solidity would write it, then parsed back: an unknown parameter type is refused here, not at decoding.
      parseAbiItem(
        `function ${toFunctionSignature({ ...item, type: 'function', outputs: Array.isArray(item['outputs']) ? item['outputs'] : [], stateMutability: typeof item['stateMutability'] === 'string' ? item['stateMutability'] : 'nonpayable' } as unknown as AbiFunction)}`,
      );
      functions += 1;
    } catch (error) {
      issues.push({
        field: `abi[${i}].inputs`,
        reason: `is not a valid ABI parameter list: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`,
      });
    }
  });
  if (issues.length > 0) throw new ValidationError(`Invalid abi: ${issues[0]!.field} ${issues[0]!.reason}`, issues.slice(0, 100));
  if (functions === 0)
    throw new ValidationError('Invalid abi: it declares no function to decode calls with', [{ field: 'abi', reason: 'declares no function' }]);
  return functions;
}
