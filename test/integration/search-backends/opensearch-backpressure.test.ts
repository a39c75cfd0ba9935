import { randomUUID } from 'node:crypto';
import { createOpenSearchClient } from '../../../functions/search/opensearch/client';
import { createOpenSearchIndex } from '../../../functions/search/opensearch/opensearch-index';
import { commonTemplateName, indexTemplates } from '../../../functions/search/opensearch/templates';

/** The index applies OpenSearch's search backpressure mode to the cluster when it is made ready (AWS: enforced). */
describe('OpenSearch search backpressure', () => {
  const client = createOpenSearchClient({ endpoint: process.env.OPENSEARCH_URL!, signWithIam: false });
  const prefix = `backpressure-${randomUUID().slice(0, 8)}-`;
  const mode = async () => {
    const settings = (await client.cluster.getSettings({ flat_settings: true })).body as { persistent: Record<string, string> };
    return settings.persistent['search_backpressure.mode'];
  };

  afterAll(async () => {
    // Back to the node's default, so the other suites on this node are not cancelled under load.
    await client.cluster.putSettings({ body: { persistent: { 'search_backpressure.mode': null } } });
    await client.indices.delete({ index: `${prefix}*` }, { ignore: [404] });
    for (const template of indexTemplates(prefix)) await client.indices.deleteIndexTemplate({ name: template.name }, { ignore: [404] });
    await client.cluster.deleteComponentTemplate({ name: commonTemplateName(prefix) }, { ignore: [404] });
    await client.close();
  });

  it('sets the mode it is given, and leaves the cluster alone when given none', async () => {
    await createOpenSearchIndex({ client, indexPrefix: prefix, replicas: 0, searchBackpressure: 'monitor_only' }).ensureReady();
    expect(await mode()).toBe('monitor_only');
    await client.cluster.putSettings({ body: { persistent: { 'search_backpressure.mode': 'disabled' } } });
    await createOpenSearchIndex({ client, indexPrefix: prefix, replicas: 0 }).ensureReady();
    expect(await mode()).toBe('disabled');
  });
});
