import * as z from 'zod';
import {
  MAX_SHARED_TIME_RANGES,
  SharedData,
  SharedDataQuery,
  SharedView,
  SharedViewToken,
  SharedViewTokenCreate,
} from '../../../schemas/resources/shared-view';
import { ListQuery, NEXT_PAGE, named, type RouteSchema } from './route-schema';
import { FunnelSchema, RetentionSchema, SearchHitsSchema } from './search-route-schemas';

/** Public and embedded views: signed tokens of workspaces and dashboards, and what a token opens. */

const SharedViewTokenSchema = named('SharedViewToken', SharedViewToken);
const SharedViewSchema = named('SharedView', SharedView);

/** A stored chart's answer (a shared workspace's, a customer template's), as the search, funnel or retention endpoint answers, told apart by `query`. */
export const SharedDataSchema = named(
  'SharedData',
  z.discriminatedUnion('query', [
    SharedData.extend({ query: z.literal('search'), answer: SearchHitsSchema }),
    SharedData.extend({ query: z.literal('funnel'), answer: FunnelSchema }),
    SharedData.extend({ query: z.literal('retention'), answer: RetentionSchema }),
  ]),
);

const tokenEntries = (name: string, noun: string, idParam: string): Record<string, RouteSchema> => ({
  [`${name}.signedTokens.create`]: {
    description: `Mints a signed token that shows this ${noun} to anyone holding it, without an account: \`url\` is the console page, \`embed_url\` the same without the console's frame (for an iframe). The token reads exactly this ${noun} and runs exactly its stored queries over the \`time_ranges\` allowed here (at most ${MAX_SHARED_TIME_RANGES}; default the chart's own), until \`expires_at\` (default 30 days, at most 366) or until it is revoked. It is shown in this answer only.`,
    params: { [idParam]: `The ${noun}'s id.` },
    body: SharedViewTokenCreate,
    responseStatus: 201,
    response: SharedViewTokenSchema,
    errors: [404, 410, 503],
  },
  [`${name}.signedTokens.list`]: {
    description: `The ${noun}'s live (unexpired, unrevoked) signed tokens, newest first; the tokens themselves are not shown again.`,
    params: { [idParam]: `The ${noun}'s id.` },
    query: ListQuery,
    responseStatus: 200,
    response: z.array(SharedViewTokenSchema),
    responseHeaders: NEXT_PAGE,
    errors: [404, 410],
  },
  [`${name}.signedTokens.delete`]: {
    description: `Revokes a signed token of the ${noun}: its links answer 401 from then on.`,
    params: { [idParam]: `The ${noun}'s id.`, tokenId: "The token record's `_id`." },
    responseStatus: 204,
    errors: [404, 410, 503],
  },
});

export const sharedViewSchemas: Record<string, RouteSchema> = {
  ...tokenEntries('workspaces', 'workspace', 'id'),
  ...tokenEntries('dashboards', 'dashboard', 'dashId'),
  'sharedViews.list': {
    description: "The app's live signed tokens of every workspace and dashboard (what is public now), newest first.",
    query: ListQuery,
    responseStatus: 200,
    response: z.array(SharedViewTokenSchema),
    responseHeaders: NEXT_PAGE,
  },
  sharedView: {
    description:
      'What a signed token shows: the workspace (or the dashboard and its workspaces, in order) with their charts and stored queries, never their policy, owner or comments; and the time ranges a viewer may pick. No other credential: the token is the link. 401 when it is forged, expired or revoked.',
    params: { token: 'The signed token.' },
    responseStatus: 200,
    response: SharedViewSchema,
    errors: [404],
  },
  sharedViewData: {
    runsQuery: true,
    description:
      "Runs a shared workspace's stored query (chart.es_query, chart.funnel_query or chart.view_elements.retention_query) over one of the token's time ranges, and answers as the search, funnel or retention endpoint would. A workspace the token does not share, or a range it does not allow, is a 401.",
    params: { token: 'The signed token.', workspaceId: 'A workspace the token shares.' },
    query: SharedDataQuery,
    responseStatus: 200,
    response: SharedDataSchema,
    errors: [404],
  },
};
