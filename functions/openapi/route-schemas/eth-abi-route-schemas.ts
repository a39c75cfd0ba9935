import * as z from 'zod';
import { EthAbiCreate, EthAbiDocument } from '../../../schemas/resources/eth-abi';
import { ListQuery, NEXT_PAGE, named, type RouteSchema } from './route-schema';

/** Ethereum ABIs: what decodes the JSON-RPC calls API calls carry. */

const EthAbiSchema = named('EthAbi', EthAbiDocument);

export const ethAbiSchemas: Record<string, RouteSchema> = {
  'ethAbi.create': {
    description:
      "Stores a contract's ABI (the compiler's JSON; a bare array is accepted as `{abi}`) for `address`, or for any contract when no address is given; posting again for an address replaces its ABI (200). From then on (within a minute), API calls whose request body is an Ethereum JSON-RPC `eth_call`, `eth_sendTransaction` or `eth_sendRawTransaction` to that contract are indexed with `eth.function`, `eth.signature`, `eth.args.<name>` and the call's `eth.to`, `eth.from`, `eth.value`, `eth.selector`. Every function item must name its inputs with valid types (400 naming `abi[i]`).",
    body: z.union([EthAbiCreate, z.array(z.record(z.string(), z.unknown()))]),
    responseStatus: 201,
    alsoStatus: { status: 200, description: 'Replaced: the address had an ABI, and this one took its place' },
    response: EthAbiSchema,
    errors: [503],
  },
  'ethAbi.list': {
    description: "The app's stored ABIs, by address (`_id` is the address, or `any`).",
    query: ListQuery,
    responseStatus: 200,
    response: z.array(EthAbiSchema),
    responseHeaders: NEXT_PAGE,
  },
  'ethAbi.delete': {
    description: 'Deletes a stored ABI; calls indexed afterwards are no longer decoded with it (those indexed before keep their `eth` fields).',
    params: { id: "The ABI's `_id`." },
    responseStatus: 204,
    errors: [404, 410, 503],
  },
};
