import { encodeFunctionData, parseAbi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * Ethereum ABIs: stored per contract through POST /~/eth_abi, they decode the JSON-RPC calls API
 * calls carry (eth_call, eth_sendTransaction, eth_sendRawTransaction) into searchable `eth` fields.
 */
describe('Ethereum ABIs and decoded JSON-RPC calls', () => {
  let rt: TestRuntime;
  const token = '0x1111111111111111111111111111111111111111';
  const other = '0x2222222222222222222222222222222222222222';
  const holder = '0x000000000000000000000000000000000000dead';
  const erc20 = [
    {
      type: 'function',
      name: 'transfer',
      stateMutability: 'nonpayable',
      inputs: [
        { name: 'to', type: 'address' },
        { name: 'amount', type: 'uint256' },
      ],
      outputs: [{ name: '', type: 'bool' }],
    },
    { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'account', type: 'address' }], outputs: [{ name: '', type: 'uint256' }] },
    {
      type: 'function',
      name: 'approve',
      stateMutability: 'nonpayable',
      inputs: [
        { name: 'spender', type: 'address' },
        { name: 'amount', type: 'uint256' },
      ],
      outputs: [{ name: '', type: 'bool' }],
    },
    {
      type: 'event',
      name: 'Transfer',
      anonymous: false,
      inputs: [
        { name: 'from', type: 'address', indexed: true },
        { name: 'to', type: 'address', indexed: true },
        { name: 'value', type: 'uint256', indexed: false },
      ],
    },
  ];
  const abi = parseAbi(['function transfer(address to, uint256 amount) returns (bool)', 'function balanceOf(address account) view returns (uint256)']);
  const rpc = (n: number, body: unknown) =>
    apiCall({
      transaction_id: uuid(n),
      request: { time: new Date().toISOString(), uri: 'https://rpc.example.com/', verb: 'POST', headers: { 'content-type': 'application/json' }, body },
      response: { time: new Date().toISOString(), status: 200, headers: {}, body: { jsonrpc: '2.0', id: 1, result: '0x' } },
    });
  const search = async (query: unknown) => {
    const answer = await rt.management('POST', '/search/~/search/events?from=-1h&to=now', {}, { query, size: 10 });
    expect([JSON.stringify(query), answer.status, answer.status === 200 ? '' : JSON.stringify(answer.body)]).toEqual([JSON.stringify(query), 200, '']);
    return answer.body.hits.hits.map((hit: { _source: Record<string, unknown> }) => hit._source);
  };

  beforeAll(async () => {
    rt = await startTestRuntime('ethereum-abi');
  });
  afterAll(() => rt?.dispose());

  it('stores an ABI per contract, replacing it when posted again, and refuses bad ones naming the item', async () => {
    const created = await rt.management('POST', '/~/eth_abi', {}, { address: token.toUpperCase().replace('0X', '0x'), name: 'Token', abi: erc20 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ address: token, name: 'Token', functions: 3 });
    const replaced = await rt.management('POST', '/~/eth_abi', {}, { address: token, name: 'Token v2', abi: erc20.slice(0, 2) });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ _id: created.body._id, functions: 2, name: 'Token v2' });
    const listed = await rt.management('GET', '/~/eth_abi');
    expect(listed.body.map((item: { address: string }) => item.address)).toEqual([token]);

    const refusals: [unknown, string][] = [
      [{ address: '0x12', abi: erc20 }, 'address'],
      [{ abi: [{ type: 'function', name: 'f', inputs: [{ type: 'uint999' }] }] }, 'abi[0].inputs'],
      [{ abi: [{ type: 'function', inputs: [] }] }, 'abi[0].name'],
      [{ abi: [erc20[3]] }, 'abi'],
      [{ abi: [] }, 'abi'],
      [[{ type: 'function', name: 'g' }], 'abi[0].inputs'],
    ];
    for (const [body, field] of refusals) {
      const answer = await rt.management('POST', '/~/eth_abi', {}, body);
      expect([JSON.stringify(body), answer.status, answer.body.error?.details?.[0]?.field]).toEqual([JSON.stringify(body), 400, field]);
    }
    expect((await rt.management('GET', '/~/eth_abi')).body).toHaveLength(1);
  });

  it('decodes eth_call, eth_sendTransaction, eth_sendRawTransaction and batches into searchable fields', async () => {
    const transfer = encodeFunctionData({ abi, functionName: 'transfer', args: [holder, 1_000_000_000_000_000_000n] });
    const balanceOf = encodeFunctionData({ abi, functionName: 'balanceOf', args: [holder] });
    const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
    const raw = await account.signTransaction({
      chainId: 1,
      type: 'eip1559',
      to: token,
      data: transfer,
      value: 0n,
      nonce: 7,
      gas: 60_000n,
      maxFeePerGas: 2_000_000_000n,
      maxPriorityFeePerGas: 1_000_000n,
    });
    const events = [
      rpc(1, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: token, data: balanceOf }, 'latest'] }),
      rpc(2, { jsonrpc: '2.0', id: 2, method: 'eth_sendTransaction', params: [{ from: account.address, to: token, data: transfer, value: '0x10' }] }),
      rpc(3, { jsonrpc: '2.0', id: 3, method: 'eth_sendRawTransaction', params: [raw] }),
      rpc(4, { jsonrpc: '2.0', id: 4, method: 'eth_call', params: [{ to: other, input: transfer }, 'latest'] }),
      rpc(5, [
        { jsonrpc: '2.0', id: 5, method: 'eth_blockNumber', params: [] },
        { jsonrpc: '2.0', id: 6, method: 'eth_call', params: [{ to: token, data: balanceOf }, 'latest'] },
      ]),
      rpc(6, { jsonrpc: '2.0', id: 7, method: 'eth_getBalance', params: [holder, 'latest'] }),
    ];
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed();

    const transfers = await search({ term: { 'eth.function': 'transfer' } });
    expect(transfers).toHaveLength(2);
    const sent = transfers.find((source: { eth: { method: string } }) => source.eth.method === 'eth_sendTransaction')!;
    expect(sent.eth).toEqual({
      method: 'eth_sendTransaction',
      to: token,
      from: account.address.toLowerCase(),
      value: '16',
      selector: '0xa9059cbb',
      decoded: true,
      function: 'transfer',
      signature: 'transfer(address,uint256)',
      args: { to: holder, amount: '1000000000000000000' },
    });
    const signed = transfers.find((source: { eth: { method: string } }) => source.eth.method === 'eth_sendRawTransaction')!;
    expect(signed.eth).toMatchObject({ to: token, value: '0', function: 'transfer', args: { to: holder, amount: '1000000000000000000' } });

    expect(await search({ term: { 'eth.args.account': holder } })).toHaveLength(2);
    const batch = (await search({ term: { 'eth.batch_size': 2 } }))[0];
    expect(batch.eth).toMatchObject({ method: 'eth_call', function: 'balanceOf', batch_size: 2 });
    // No ABI for the other contract: the call is still found by its selector.
    const unknown = await search({ term: { 'eth.to': other } });
    expect(unknown.map((source: { eth: unknown }) => source.eth)).toEqual([{ method: 'eth_call', to: other, selector: '0xa9059cbb', decoded: false }]);
    // Other JSON-RPC methods are indexed as they are.
    const all = await search({ match_all: {} });
    expect(all).toHaveLength(6);
    expect(
      all
        .filter((source: Record<string, unknown>) => source['eth'] === undefined)
        .map((source: { request: { body: { method: string } } }) => source.request.body.method),
    ).toEqual(['eth_getBalance']);
    const byFunction = await rt.management(
      'POST',
      '/search/~/search/events?from=-1h&to=now',
      {},
      { size: 0, aggs: { functions: { terms: { field: 'eth.function.raw' } } } },
    );
    expect(byFunction.body.aggregations.functions.buckets).toEqual([
      { key: 'balanceOf', doc_count: 2 },
      { key: 'transfer', doc_count: 2 },
    ]);
  });

  it('deletes a stored ABI', async () => {
    const [stored] = (await rt.management('GET', '/~/eth_abi')).body;
    expect((await rt.management('DELETE', `/~/eth_abi/${stored._id}`)).status).toBe(204);
    expect((await rt.management('GET', '/~/eth_abi')).body).toEqual([]);
  });
});
