import { Client } from '@opensearch-project/opensearch';
import { createOpenSearchClient } from '../../../functions/search/opensearch/client';

describe('createOpenSearchClient', () => {
  it('builds a plain client for a local cluster', () => {
    expect(createOpenSearchClient({ endpoint: 'http://127.0.0.1:9200', signWithIam: false })).toBeInstanceOf(Client);
  });

  it('builds a SigV4-signing client for an AWS domain, which needs the region', () => {
    const endpoint = 'https://search-analytics.eu-west-1.es.amazonaws.com';
    expect(createOpenSearchClient({ endpoint, region: 'eu-west-1', signWithIam: true })).toBeInstanceOf(Client);
    expect(() => createOpenSearchClient({ endpoint, signWithIam: true })).toThrow('region');
  });
});
