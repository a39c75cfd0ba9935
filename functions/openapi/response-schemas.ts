import * as z from 'zod';
import { AppSettings } from '../../schemas/app';
import { RuleAssignment } from '../../schemas/governance';
import type { OAuthErrorCode, OAuthTokenResponse, SignedToken } from '../../schemas/oauth';
import { StoredOrgUser, type OrgUser } from '../../schemas/org';
import type { ChannelTestResult } from '../billing/channels/channel-test';
import { ProviderRequestRecord } from '../billing/providers/provider-port';
import type { SdkConfig } from '../ingest/collector/sdk-config';
import type { CollectResult } from '../ingest/collector/collect';
import type { UploadStore } from '../ingest/uploads/upload-store';
import { UploadKind } from '../ingest/uploads/upload-store';
import type { FieldCatalogue } from '../search/field-catalogue';
import type { SearchResponse, StoredDocument } from '../search/port';
import type { ErrorBody } from '../shared/http/error-response';

/**
 * Zod schemas of answers whose shape is declared as a TypeScript interface beside the code that
 * builds it (hot paths build plain objects; they do not parse their own output). These schemas only
 * document those answers; the compile-time checks at the end fail the build if either side drifts.
 */

export const ErrorResponse = z
  .object({
    error: z.object({
      status: z.int().meta({ description: 'The HTTP status, repeated.' }),
      code: z.string().meta({ description: 'Stable machine-readable code, e.g. invalid_request, unauthorized, not_found.' }),
      message: z.string(),
      details: z
        .array(
          z.object({
            index: z.int().optional().meta({ description: "The item's position in a batch body." }),
            field: z.string(),
            reason: z.string(),
          }),
        )
        .meta({ description: 'One entry per field at fault; empty when nothing is per field.' }),
    }),
  })
  .meta({ id: 'Error', description: 'The one error shape of both APIs.' });

export const Accepted = z.object({ accepted: z.int().meta({ description: 'How many items the stream accepted (all of them: batches are all-or-nothing).' }) });

export const UploadTicket = z.object({
  upload_id: z.string(),
  url: z.string().meta({ description: 'Pre-signed S3 URL: PUT the batch (a JSON array, optionally gzip) here.' }),
  method: z.literal('PUT'),
  expires_in: z.int().meta({ description: 'Seconds the URL stays valid.' }),
  kind: UploadKind,
});

export const SdkConfigResponse = z.object({
  org_id: z.string(),
  app_id: z.string(),
  sample_rate: z.number(),
  user_sample_rate: z.record(z.string(), z.number()),
  company_sample_rate: z.record(z.string(), z.number()),
  // The SDK config types these as unknown[]: each item is a RuleAssignment (the description says so).
  user_rules: z.record(z.string(), z.array(z.unknown())).meta({ description: `user_id → the rules whose cohorts the user is in: ${ruleAssignmentNote()}` }),
  company_rules: z
    .record(z.string(), z.array(z.unknown()))
    .meta({ description: `company_id → the rules whose cohorts the company is in: ${ruleAssignmentNote()}` }),
  regex_config: AppSettings.shape.regex_config.unwrap(),
});

function ruleAssignmentNote(): string {
  return `items are {${Object.keys(RuleAssignment.shape).join(', ')}} (rules: the rule id; values: the rule's variables for the entity).`;
}

export const Probe = z.object({ status: z.literal(true), region: z.string() });

export const SearchHits = z.object({
  took: z.number(),
  timed_out: z.boolean(),
  hits: z.object({
    total: z.int(),
    max_score: z.null(),
    hits: z.array(
      z.object({
        _id: z.string(),
        _source: z.record(z.string(), z.unknown()).optional(),
        sort: z
          .array(z.union([z.string(), z.number(), z.boolean(), z.null()]))
          .optional()
          .meta({ description: 'Sort values of this hit: pass the last one as search_after for the next page.' }),
      }),
    ),
  }),
  aggregations: z.record(z.string(), z.unknown()).optional().meta({ description: "Aggregation results in OpenSearch's shape." }),
});

export const Count = z.object({ count: z.int() });

export const Document = z.object({ _id: z.string(), _source: z.record(z.string(), z.unknown()) });

export const FieldList = z.object({
  properties: z.record(
    z.string(),
    z.object({
      type: z.enum(['keyword', 'text', 'date', 'long', 'double', 'boolean', 'object']),
      fields: z.object({ raw: z.object({ type: z.literal('keyword') }) }).optional(),
    }),
  ),
});

/** A deletion of events that may run in the background (OpenSearch), or be done at once (DuckDB). */
export const EventsDeletion = z.object({
  status: z.enum(['running', 'completed', 'failed']),
  deleted: z.int().meta({ description: 'Events deleted so far.' }),
  total: z.int().optional().meta({ description: 'Events found to delete, once counted.' }),
  error: z.string().optional().meta({ description: 'Why a failed deletion stopped; run it again to finish.' }),
  deletion_id: z.string().optional().meta({ description: 'Present while it can be followed: GET url.' }),
  url: z.string().optional().meta({ description: '/search/~/deletions/{deletion_id}' }),
});

const deletion = <K extends string>(owner: K) =>
  z.object({
    [owner]: z.string(),
    deleted: z.literal(true),
    events_deleted: z.int().meta({ description: 'Events deleted by the time of the answer (delete_events=true), else 0.' }),
    events_deletion: EventsDeletion.optional().meta({
      description: 'With delete_events=true: the deletion of its events, which on OpenSearch runs in the background.',
    }),
  } as { [P in K]: z.ZodString } & { deleted: z.ZodLiteral<true>; events_deleted: z.ZodInt; events_deletion: z.ZodOptional<typeof EventsDeletion> });
export const UserDeleted = deletion('user_id');
export const CompanyDeleted = deletion('company_id');

export const OAuthToken = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.int().meta({ description: 'Seconds the token is valid.' }),
  scope: z.string().meta({ description: 'The scopes granted, space-separated.' }),
});

const oauthErrorCodes = [
  'invalid_request',
  'invalid_grant',
  'unsupported_grant_type',
  'invalid_scope',
  'too_many_requests',
  'server_error',
] as const satisfies readonly OAuthErrorCode[];
export const OAuthErrorBody = z.object({ error: z.enum(oauthErrorCodes), error_description: z.string() });

export const SignedTokenResponse = z.object({
  _id: z.string().meta({ description: 'The token id (management) or the app id (collector).' }),
  token: z.string(),
  url: z.string().optional(),
});

export const OrgUserResponse = StoredOrgUser.omit({ password_hash: true });

/** An app as `appDocument` (functions/management/apps.ts) shows it; a unit test checks that function's output against it. */
export const AppResponse = z.object({
  id: z.string(),
  name: z.string(),
  custom_app_id: z.string().optional(),
  time_zone: z.string(),
  week_starts_on: z.int(),
  search_api_base_url: z.string(),
  portal_api_base_url: z.string(),
  secure_proxy: z.boolean(),
  ...AppSettings.shape,
  created_at: z.string(),
  modified_at: z.string(),
  collector_application_id: z.string().optional().meta({ description: 'Shown on create, and to callers holding create:access_tokens.' }),
});

/** One channel's outcome of a test delivery (the shape of a billing report's `channel_requests[]`). */
export const ChannelTestOutcome = z.object({
  channel_id: z.string(),
  channel_name: z.string().nullable(),
  success: z.boolean(),
  provider_requests: z.array(ProviderRequestRecord),
});

export const OpenApiDocument = z.record(z.string(), z.unknown()).meta({ description: 'An OpenAPI 3.1 document.' });

// ── drift checks: each schema and the interface it documents must describe the same values ──

// Readonly modifiers say how code treats a value, not what the value is: compare without them.
type Writable<T> = T extends readonly (infer E)[] ? Writable<E>[] : T extends object ? { -readonly [K in keyof T]: Writable<T[K]> } : T;
type Same<A, B> = [Writable<A>] extends [Writable<B>] ? ([Writable<B>] extends [Writable<A>] ? true : false) : false;
function sameShape<T extends true>(): T | undefined {
  return undefined;
}
sameShape<Same<z.infer<typeof ErrorResponse>, ErrorBody>>();
sameShape<Same<z.infer<typeof Accepted>, CollectResult>>();
sameShape<Same<z.infer<typeof UploadTicket>, Awaited<ReturnType<UploadStore['create']>>>>();
sameShape<Same<z.infer<typeof SdkConfigResponse>, SdkConfig>>();
sameShape<Same<z.infer<typeof SearchHits>, SearchResponse>>();
sameShape<Same<z.infer<typeof Document>, StoredDocument>>();
sameShape<Same<z.infer<typeof FieldList>, FieldCatalogue>>();
sameShape<Same<z.infer<typeof OAuthToken>, OAuthTokenResponse>>();
sameShape<Same<z.infer<typeof OAuthErrorBody>['error'], OAuthErrorCode>>();
sameShape<Same<z.infer<typeof SignedTokenResponse>, SignedToken>>();
sameShape<Same<z.infer<typeof OrgUserResponse>, OrgUser>>();
sameShape<Same<z.infer<typeof ChannelTestOutcome>, ChannelTestResult>>();
