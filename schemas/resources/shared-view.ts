import * as z from 'zod';
import { StoredObject } from '../stored-json';
import { DateParameter, TimeZoneName } from '../time-zone';
import { DrawingItem } from './workspace';

/**
 * Public and embedded views: a signed token that lets anyone holding it read one workspace (or one
 * dashboard and its workspaces) and run exactly their stored queries over the time ranges the owner
 * allowed. Spec: "Signed token" (`_id`, `token`, `url`).
 */

/** What a token shares. */
export const SharedTargetKind = z.enum(['workspace', 'dashboard']);
export type SharedTargetKind = z.infer<typeof SharedTargetKind>;

/** A time range a viewer may pick: relative (`-7d`, `now`) or absolute ISO 8601, as the search API's `from`/`to`. */
export const SharedTimeRange = z.strictObject({
  from: DateParameter,
  to: DateParameter,
  /** What a viewer sees in the range picker; default "from → to". */
  label: z.string().min(1).max(64).optional(),
});
export type SharedTimeRange = z.infer<typeof SharedTimeRange>;

/** The most ranges one token may allow (a picker, not a query language). */
export const MAX_SHARED_TIME_RANGES = 10;
/** A token lives at most a year; the default is 30 days. */
export const MAX_SHARED_TOKEN_SECONDS = 366 * 86_400;
export const DEFAULT_SHARED_TOKEN_SECONDS = 30 * 86_400;

/** POST /~/workspaces/{id}/signed_tokens (and /~/dashboards/{dashId}/signed_tokens). */
export const SharedViewTokenCreate = z
  .strictObject({
    /** When the token stops working (ISO 8601, in the future, at most a year ahead). */
    expires_at: z.string().optional(),
    /** Or: seconds from now (60 to a year). Default 30 days. */
    expires_in: z.int().min(60).max(MAX_SHARED_TOKEN_SECONDS).optional(),
    /**
     * The ranges a viewer may pick, the first being the default. Default: the workspace's own
     * `chart.from`/`chart.to` (or the last 24 hours when it has none).
     */
    time_ranges: z.array(SharedTimeRange).min(1).max(MAX_SHARED_TIME_RANGES).optional(),
    /** The time zone the ranges and the charts' buckets are read in (TZ database name); default the chart's, else UTC. */
    time_zone: TimeZoneName.optional(),
    /** A note for the owner (who the link was given to). */
    description: z.string().max(256).optional(),
  })
  .meta({ not: { required: ['expires_at', 'expires_in'] } });
export type SharedViewTokenCreate = z.infer<typeof SharedViewTokenCreate>;

/** The stored record of a token (the token itself is never stored: it is signed, and shown once). */
export const SharedViewTokenRecord = z.object({
  _id: z.string(),
  org_id: z.string(),
  app_id: z.string(),
  target_kind: SharedTargetKind,
  target_id: z.string(),
  time_ranges: z.array(SharedTimeRange),
  time_zone: z.string(),
  expires_at: z.string(),
  description: z.string().optional(),
  created_by: z.string(),
  created_at: z.string(),
  modified_at: z.string(),
});
export type SharedViewTokenRecord = z.infer<typeof SharedViewTokenRecord>;

/** Spec: Signed token (`_id`, `token`, `url`), with where to embed it and what it allows. */
export const SharedViewToken = SharedViewTokenRecord.extend({
  /** Shown when the token is made only. */
  token: z.string().optional(),
  /** The console page that shows the view without signing in. */
  url: z.string().optional(),
  /** The same view without the console's frame, for an iframe. */
  embed_url: z.string().optional(),
});
export type SharedViewToken = z.infer<typeof SharedViewToken>;

/** Claims of a shared-view token (HS256 with a key derived from the management signing key). */
export const SharedViewClaims = z.strictObject({
  typ: z.literal('shared_view'),
  org_id: z.string(),
  app_id: z.string(),
  /** The record's id: deleting it revokes the token. */
  tid: z.string(),
  kind: SharedTargetKind,
  id: z.string(),
  iat: z.int(),
  exp: z.int(),
});
export type SharedViewClaims = z.infer<typeof SharedViewClaims>;

/** A workspace as a viewer sees it: its chart and looks, never its policy, owner or comments. */
export const SharedWorkspace = z.object({
  _id: z.string(),
  name: z.string().optional(),
  chart: StoredObject.optional(),
  colors: StoredObject.optional(),
  drawings: z.array(DrawingItem).optional(),
  width: z.number().optional(),
});
export type SharedWorkspace = z.infer<typeof SharedWorkspace>;

/** GET /public/views/{token}. */
export const SharedView = z.object({
  kind: SharedTargetKind,
  /** The dashboard's name, or the workspace's. */
  name: z.string(),
  workspaces: z.array(SharedWorkspace),
  time_ranges: z.array(SharedTimeRange),
  time_zone: z.string(),
  expires_at: z.string(),
});
export type SharedView = z.infer<typeof SharedView>;

/** GET /public/views/{token}/workspaces/{workspaceId}/data: which allowed range (its index; default 0). */
export const SharedDataQuery = z.object({
  range: z
    .string()
    .regex(/^\d{1,2}$/)
    .optional()
    .meta({ description: "Index of one of the token's time_ranges; default 0." }),
});

/** The answer of a shared workspace's stored query. */
export const SharedData = z.object({
  /** Which stored query ran: `search` (chart.es_query), `funnel` (chart.funnel_query), `retention` (view_elements.retention_query). */
  query: z.enum(['search', 'funnel', 'retention']),
  range: SharedTimeRange,
  time_zone: z.string(),
  answer: z.record(z.string(), z.unknown()),
});
