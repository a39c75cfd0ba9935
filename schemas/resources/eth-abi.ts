import * as z from 'zod';

/** A contract address: 0x and 40 hex digits (any case; stored lower-case). */
export const EthAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, { message: 'is not a 0x address of 40 hex digits' });

/** The most ABI items one contract may store (a large contract has a few hundred). */
export const MAX_ABI_ITEMS = 2_000;

/**
 * POST /~/eth_abi: a contract's ABI (the JSON the Solidity compiler writes), for one `address`, or
 * for any contract when no address is given. A bare ABI array is accepted as `{abi}`.
 */
export const EthAbiCreate = z.strictObject({
  address: EthAddress.optional(),
  name: z.string().min(1).max(128).optional(),
  abi: z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_ABI_ITEMS),
});
export type EthAbiCreate = z.infer<typeof EthAbiCreate>;

/** The stored ABI: `_id` is the address (lower-case) or `any`. */
export const EthAbiDocument = z.object({
  _id: z.string(),
  org_id: z.string(),
  app_id: z.string(),
  address: z.string().nullable(),
  name: z.string().optional(),
  abi: z.array(z.record(z.string(), z.unknown())),
  /** Functions the ABI declares (what calls are decoded with). */
  functions: z.int(),
  created_at: z.string(),
  modified_at: z.string(),
});
export type EthAbiDocument = z.infer<typeof EthAbiDocument>;

/** What an indexed API call carrying an Ethereum JSON-RPC request gets, under `eth`. */
export const EthCallFields = z.object({
  /** eth_call, eth_sendTransaction or eth_sendRawTransaction. */
  method: z.string(),
  to: z.string().optional(),
  from: z.string().optional(),
  /** Wei, as a decimal string. */
  value: z.string().optional(),
  /** The 4-byte function selector of the call data. */
  selector: z.string().optional(),
  /** Whether a stored ABI named the function. */
  decoded: z.boolean(),
  function: z.string().optional(),
  /** `name(type,…)`. */
  signature: z.string().optional(),
  /** Arguments by name (`arg<i>` when unnamed), each a string: decimal numbers, hex addresses and bytes, JSON tuples and arrays. */
  args: z.record(z.string(), z.string()).optional(),
  /** Calls in the JSON-RPC batch the request was (the first decodable one is described). */
  batch_size: z.int().optional(),
});
export type EthCallFields = z.infer<typeof EthCallFields>;
