import collector from '../../../openapi/collector.json';
import management from '../../../openapi/management.json';
import { addResourceLinks } from '../../../functions/openapi/resource-links';

type Json = Record<string, unknown>;

const created = (schema: string) => ({ responses: { '201': { content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } } } });
const linksOf = (document: { paths: Record<string, Json> }, path: string): Json | undefined =>
  ((document.paths[path]?.['post'] as Json | undefined)?.['responses'] as Record<string, Json> | undefined)?.['201']?.['links'] as Json | undefined;

describe('links from a create to what it created', () => {
  test('each operation of the item path, its parameter from the answer and the parent parameters from the request', () => {
    const paths: Record<string, Json> = {
      '/~/workspaces/{id}/comments': { post: created('Comment') },
      '/~/workspaces/{id}/comments/{commentId}': { get: { operationId: 'commentGet' }, delete: { operationId: 'commentDelete' } },
      '/~/workspaces/{id}/comments/{commentId}/replies': { get: { operationId: 'repliesList' } },
    };
    addResourceLinks(paths, { Comment: { type: 'object', required: ['comment_id', 'message'] } });
    expect(linksOf({ paths }, '/~/workspaces/{id}/comments')).toEqual({
      get_commentGet: {
        operationId: 'commentGet',
        parameters: { id: '$request.path.id', commentId: '$response.body#/comment_id' },
        description: 'GET /~/workspaces/{id}/comments/{commentId} of the created resource',
      },
      delete_commentDelete: {
        operationId: 'commentDelete',
        parameters: { id: '$request.path.id', commentId: '$response.body#/comment_id' },
        description: 'DELETE /~/workspaces/{id}/comments/{commentId} of the created resource',
      },
    });
  });

  test('no link when the answer names no id the parameter could take', () => {
    const paths: Record<string, Json> = { '/things': { post: created('Accepted') }, '/things/{id}': { get: { operationId: 'thingGet' } } };
    addResourceLinks(paths, { Accepted: { type: 'object', required: ['accepted'] } });
    expect(linksOf({ paths }, '/things')).toBeUndefined();
  });

  test('the committed documents carry them', () => {
    expect(linksOf(management as never, '/~/dashboards')?.['get_dashboardsGet']).toMatchObject({ parameters: { dashId: '$response.body#/_id' } });
    expect(Object.values(linksOf(management as never, '/~/organizations/users') ?? {})).toContainEqual(
      expect.objectContaining({ parameters: { username: '$response.body#/username' } }),
    );
    expect(linksOf(collector as never, '/v1/uploads')?.['get_getUpload']).toMatchObject({ parameters: { uploadId: '$response.body#/upload_id' } });
  });
});
