import fc from 'fast-check';
import { encodeFunctionData, parseAbi, serializeTransaction, type Abi } from 'viem';
import { ethFieldsOf, jsonRpcCalls } from '../../../functions/ethereum/json-rpc-decoding';

const abi = parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function setFlags(bool on, bytes32 tag, uint8[] levels)',
  'function swap((address token, uint256 amount) input, address)',
]) as Abi;
const token = '0x1111111111111111111111111111111111111111';
const lookup = (address: string | undefined) => (address === token ? abi : undefined);

describe('Ethereum JSON-RPC decoding', () => {
  it('decodes arguments of every shape into strings, addresses in lower case', () => {
    const data = encodeFunctionData({
      abi,
      functionName: 'swap',
      args: [{ token: '0x000000000000000000000000000000000000dEaD', amount: 5n }, '0xabcdef0000000000000000000000000000000001'],
    });
    expect(ethFieldsOf({ method: 'eth_call', params: [{ to: token, data }] }, lookup)).toEqual({
      method: 'eth_call',
      to: token,
      decoded: true,
      selector: data.slice(0, 10),
      function: 'swap',
      signature: 'swap((address,uint256),address)',
      args: { input: '{"token":"0x000000000000000000000000000000000000dead","amount":"5"}', arg1: '0xabcdef0000000000000000000000000000000001' },
    });
    const flags = encodeFunctionData({ abi, functionName: 'setFlags', args: [true, `0x${'ab'.repeat(32)}`, [1, 2, 3]] });
    expect(ethFieldsOf({ method: 'eth_sendTransaction', params: [{ to: token, data: flags, value: '0xde0b6b3a7640000' }] }, lookup)).toMatchObject({
      value: '1000000000000000000',
      function: 'setFlags',
      args: { on: 'true', tag: `0x${'ab'.repeat(32)}`, levels: '[1,2,3]' },
    });
  });

  it('reads a signed raw transaction for its target, value and data', () => {
    const data = encodeFunctionData({ abi, functionName: 'transfer', args: [token, 7n] });
    const raw = serializeTransaction(
      { chainId: 1, type: 'eip1559', to: token, data, value: 3n, nonce: 1, gas: 21_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n },
      { r: `0x${'1'.repeat(64)}`, s: `0x${'2'.repeat(64)}`, yParity: 0 },
    );
    expect(ethFieldsOf({ method: 'eth_sendRawTransaction', params: [raw] }, lookup)).toMatchObject({
      method: 'eth_sendRawTransaction',
      to: token,
      value: '3',
      function: 'transfer',
      args: { to: token, amount: '7' },
    });
  });

  it('keeps what it can when there is no ABI or the data does not fit, and ignores other methods', () => {
    const data = encodeFunctionData({ abi, functionName: 'transfer', args: [token, 7n] });
    expect(ethFieldsOf({ method: 'eth_call', params: [{ to: '0x2222222222222222222222222222222222222222', data }] }, lookup)).toEqual({
      method: 'eth_call',
      to: '0x2222222222222222222222222222222222222222',
      decoded: false,
      selector: '0xa9059cbb',
    });
    expect(ethFieldsOf({ method: 'eth_call', params: [{ to: token, data: '0xa9059cbb1234' }] }, lookup)).toEqual({
      method: 'eth_call',
      to: token,
      decoded: false,
      selector: '0xa9059cbb',
    });
    expect(ethFieldsOf({ method: 'eth_getBalance', params: [token] }, lookup)).toBeUndefined();
    expect(ethFieldsOf(`{"method":"eth_call","params":[{"to":"${token}","data":"${data}"}]}`, lookup)).toMatchObject({ function: 'transfer' });
    expect(
      ethFieldsOf(
        [
          { method: 'eth_chainId', params: [] },
          { method: 'eth_call', params: [{ to: token, data }] },
        ],
        lookup,
      ),
    ).toMatchObject({ function: 'transfer', batch_size: 2 });
  });

  it('never throws, whatever the body (property)', () => {
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({
        method: fc.constantFrom('eth_call', 'eth_sendTransaction', 'eth_sendRawTransaction'),
        params: fc.array(
          fc.oneof(
            fc.jsonValue(),
            fc.record({ to: fc.string(), data: fc.stringMatching(/^0x[0-9a-f]*$/), value: fc.string() }),
            fc.stringMatching(/^0x[0-9a-f]*$/),
          ),
        ),
      }),
    );
    fc.assert(
      fc.property(body, (value) => {
        const fields = ethFieldsOf(value, () => abi);
        if (fields !== undefined) expect(jsonRpcCalls(value).length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });
});
