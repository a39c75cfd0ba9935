import type { ApiSchema } from '../../../lib/api-types';
import { dataOf } from '../../../lib/api-client';
import { useApiMutation } from '../../../lib/api-mutation';
import { useApi } from '../../../lib/api-context';
import { keysetPage, LIST_PAGE_SIZE, useKeysetPages } from '../../../lib/keyset-pages';

/** A stored contract ABI: `_id` is the contract's address (lower case), or `any` for every contract. */
export type ContractAbi = ApiSchema<'EthAbi'>;

/** The app's stored ABIs, a page at a time. */
export function useAbiPages() {
  const api = useApi();
  return useKeysetPages<ContractAbi>(['eth-abis'], async (beforeId) =>
    keysetPage<ContractAbi>(await api.GET('/~/eth_abi', { params: { query: { take: LIST_PAGE_SIZE, ...(beforeId ? { before_id: beforeId } : {}) } } })),
  );
}

/** Stores an ABI for an address (or for any contract); a second one for the same address replaces the first. */
export function useSaveAbi() {
  return useApiMutation(['eth-abis'], async (api, input: { address?: string; name?: string; abi: Record<string, unknown>[] }) =>
    dataOf(await api.POST('/~/eth_abi', { body: input })),
  );
}

export function useDeleteAbi() {
  return useApiMutation(['eth-abis'], async (api, id: string) => dataOf(await api.DELETE('/~/eth_abi/{id}', { params: { path: { id } } })));
}
