import { decodeFunctionData, parseTransaction, toFunctionSelector, toFunctionSignature, type Abi, type AbiFunction, type AbiParameter } from 'viem';
import type { EthCallFields } from '../../schemas/resources/eth-abi';

/**
 * Ethereum JSON-RPC requests in API calls, decoded with the app's stored ABIs (viem): `eth_call` and
 * `eth_sendTransaction` carry `{to, from, data|input, value}`; `eth_sendRawTransaction` carries a
 * signed transaction, parsed for its `to`, `value` and `data`. The call data's selector names the
 * function of the ABI stored for `to` (or the ABI stored for any contract), whose arguments are then
 * decoded by name.
 */

export const DECODED_METHODS = new Set(['eth_call', 'eth_sendTransaction', 'eth_sendRawTransaction']);
/** Arguments kept per call (each becomes a searchable field). */
export const MAX_ARGS = 20;
/** Characters kept of a long argument (a bytes blob, a long array). */
const MAX_ARG_CHARS = 1_024;

/** The ABI for a contract address (lower-case), or for any contract; undefined when none is stored. */
export type AbiLookup = (address: string | undefined) => Abi | undefined;

interface JsonRpcCall {
  readonly method: string;
  readonly params: readonly unknown[];
}

/** The request objects of a body: an object, an array batch, or either as JSON text; none for anything else. */
function jsonRpcRequests(body: unknown): unknown[] {
  let value = body;
  // Bodies kept as text are parsed only when they name a method this decodes: the consumer checks
  // every API call, and most text bodies are not JSON-RPC.
  if (typeof value === 'string' && /^\s*[[{]/.test(value) && value.includes('"eth_')) {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  return Array.isArray(value) ? value : typeof value === 'object' && value !== null ? [value] : [];
}

const isDecodedCall = (item: unknown): item is JsonRpcCall =>
  typeof item === 'object' &&
  item !== null &&
  typeof (item as JsonRpcCall).method === 'string' &&
  DECODED_METHODS.has((item as JsonRpcCall).method) &&
  Array.isArray((item as JsonRpcCall).params);

/** The calls of a request body that this decodes (eth_call, eth_sendTransaction, eth_sendRawTransaction). */
export function jsonRpcCalls(body: unknown): JsonRpcCall[] {
  return jsonRpcRequests(body).filter(isDecodedCall);
}

/** The `eth` fields of a request body, or undefined when it holds no call this decodes. */
export function ethFieldsOf(body: unknown, abiFor: AbiLookup): EthCallFields | undefined {
  const requests = jsonRpcRequests(body);
  const described = requests
    .filter(isDecodedCall)
    .map((call) => describeCall(call, abiFor))
    .find((fields): fields is EthCallFields => fields !== undefined);
  if (!described) return undefined;
  return Array.isArray(body) || requests.length > 1 ? { ...described, batch_size: requests.length } : described;
}

function describeCall(call: JsonRpcCall, abiFor: AbiLookup): EthCallFields | undefined {
  const transaction = transactionOf(call);
  if (!transaction) return undefined;
  const { to, from, value, data } = transaction;
  const base: EthCallFields = {
    method: call.method,
    ...(to ? { to } : {}),
    ...(from ? { from } : {}),
    ...(value !== undefined ? { value } : {}),
    decoded: false,
  };
  if (!data || data.length < 10) return base;
  const selector = data.slice(0, 10).toLowerCase();
  const abi = abiFor(to);
  const fn = abi?.find((item): item is AbiFunction => item.type === 'function' && safeSelector(item) === selector);
  if (!abi || !fn) return { ...base, selector };
  try {
    const { args } = decodeFunctionData({ abi: [fn], data: data as `0x${string}` });
    const named: Record<string, string> = {};
    fn.inputs.slice(0, MAX_ARGS).forEach((input, i) => {
      named[input.name && /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(input.name) ? input.name : `arg${i}`] = argText(lowerCaseAddresses((args ?? [])[i], input));
    });
    return { ...base, selector, decoded: true, function: fn.name, signature: toFunctionSignature(fn), args: named };
  } catch {
    // Call data that does not match its function's inputs: the selector is still worth having.
    return { ...base, selector };
  }
}

function transactionOf(call: JsonRpcCall): { to?: string; from?: string; value?: string; data?: string } | undefined {
  const [first] = call.params;
  if (call.method === 'eth_sendRawTransaction') {
    if (typeof first !== 'string' || !/^0x[0-9a-fA-F]+$/.test(first)) return undefined;
    try {
      const tx = parseTransaction(first as `0x${string}`);
      // A signed transaction without a value moves none: 0.
      return { ...(tx.to ? { to: tx.to.toLowerCase() } : {}), value: (tx.value ?? 0n).toString(), ...(tx.data ? { data: tx.data } : {}) };
    } catch {
      return undefined;
    }
  }
  if (typeof first !== 'object' || first === null) return undefined;
  const tx = first as Record<string, unknown>;
  const hex = (v: unknown) => (typeof v === 'string' && /^0x[0-9a-fA-F]*$/.test(v) ? v : undefined);
  const data = hex(tx['data']) ?? hex(tx['input']);
  const value = hex(tx['value']);
  return {
    ...(hex(tx['to']) ? { to: hex(tx['to'])!.toLowerCase() } : {}),
    ...(hex(tx['from']) ? { from: hex(tx['from'])!.toLowerCase() } : {}),
    ...(value && value.length > 2 ? { value: BigInt(value).toString() } : {}),
    ...(data ? { data } : {}),
  };
}

const selectors = new WeakMap<AbiFunction, string>();
function safeSelector(fn: AbiFunction): string | undefined {
  let selector = selectors.get(fn);
  if (selector === undefined) {
    try {
      selector = toFunctionSelector(fn);
    } catch {
      selector = '';
    }
    selectors.set(fn, selector);
  }
  return selector || undefined;
}

/**
 * A decoded value as a string: decimal for integers, hex for addresses (lower case) and bytes, `true`/`false`,
 * JSON for tuples and arrays; cut at MAX_ARG_CHARS. Always a string, so `eth.args.<name>` has one
 * type in the index whatever contract a name comes from (a bool here and an address there would
 * conflict in OpenSearch's mapping and fail the event's indexing).
 */
function argText(value: unknown): string {
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'bigint' || typeof value === 'boolean' || typeof value === 'number'
        ? String(value)
        : (JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? '');
  return text.length > MAX_ARG_CHARS ? text.slice(0, MAX_ARG_CHARS) : text;
}

/**
 * Addresses in lower case, as `to` and `from` are, wherever the parameter's type puts them (arrays,
 * tuples): one spelling to search for (viem returns EIP-55 mixed case).
 */
function lowerCaseAddresses(value: unknown, param: AbiParameter): unknown {
  const arrayOf = /^(.*)\[\d*\]$/.exec(param.type);
  if (arrayOf && Array.isArray(value)) return value.map((item) => lowerCaseAddresses(item, { ...param, type: arrayOf[1]! } as AbiParameter));
  if (param.type === 'address' && typeof value === 'string') return value.toLowerCase();
  const components = 'components' in param ? param.components : undefined;
  if (param.type === 'tuple' && components && typeof value === 'object' && value !== null) {
    if (Array.isArray(value)) return value.map((item, i) => (components[i] ? lowerCaseAddresses(item, components[i]!) : item));
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        const component = components.find((c) => c.name === key);
        return [key, component ? lowerCaseAddresses(item, component) : item];
      }),
    );
  }
  return value;
}
