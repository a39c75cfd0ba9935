import * as z from 'zod';
import { ActionEvent, ApiCallEvent, CompanyProfile, Subscription, UserProfile } from '../../../schemas/collector';
import { SdkRule } from '../../../schemas/governance';
import { UploadKind, UploadResult } from '../../ingest/uploads/upload-store';
import { Accepted, Probe, SdkConfigResponse, UploadTicket } from '../response-schemas';
import { named, type RouteSchema } from './route-schema';

/** The collector API's operations. */
// ── Collector ──

export const ApiCallEventSchema = named('ApiCallEvent', ApiCallEvent);
export const ActionEventSchema = named('ActionEvent', ActionEvent);
export const UserProfileSchema = named('UserProfile', UserProfile);
export const CompanyProfileSchema = named('CompanyProfile', CompanyProfile);
export const SubscriptionSchema = named('Subscription', Subscription);
export const AcceptedSchema = named('Accepted', Accepted);

export const ingest = (what: string, body: z.ZodType, batch: boolean): RouteSchema => ({
  description: batch
    ? `A JSON array of ${what}. All-or-nothing: one invalid item refuses the whole batch with a 400 whose details give each item's index. At most 50 MB decompressed (API Gateway caps a request at 10 MB on AWS: use POST /v1/uploads for larger batches); Content-Encoding gzip, deflate or br.`
    : `One ${what}. Content-Encoding gzip, deflate or br.`,
  body: batch ? z.array(body) : body,
  responseStatus: 201,
  response: AcceptedSchema,
  // 503: the ingest stream did not take every record; nothing was acknowledged, retry.
  errors: [503],
});

export const collectorSchemas: Record<string, RouteSchema> = {
  events: ingest('API call event', ApiCallEventSchema, false),
  eventsBatch: ingest('API call events', ApiCallEventSchema, true),
  actions: ingest('action event', ActionEventSchema, false),
  actionsBatch: ingest('action events', ActionEventSchema, true),
  users: ingest('user profile (created, or merged into the stored one)', UserProfileSchema, false),
  usersBatch: ingest('user profiles', UserProfileSchema, true),
  companies: ingest('company profile (created, or merged into the stored one)', CompanyProfileSchema, false),
  companiesBatch: ingest('company profiles', CompanyProfileSchema, true),
  subscriptions: ingest('subscription (created, or merged into the stored one)', SubscriptionSchema, false),
  subscriptionsBatch: ingest('subscriptions', SubscriptionSchema, true),
  createUpload: {
    description: 'A pre-signed URL to PUT a batch larger than the API body limit (up to 50 MB); processing starts when the upload lands.',
    query: z.object({ kind: UploadKind.optional().meta({ description: 'What the batch holds; default event.' }) }),
    responseStatus: 201,
    response: named('UploadTicket', UploadTicket),
  },
  getUpload: {
    description: 'Processing status of an uploaded batch: pending, accepted (with the count) or rejected (with the error).',
    params: { uploadId: 'The upload_id from POST /v1/uploads.' },
    responseStatus: 200,
    response: named('UploadResult', UploadResult),
    errors: [404],
  },
  config: {
    description: 'Sampling rates and rule assignments for the calling app. Every collector answer carries its ETag (X-Config-ETag, X-Moesif-Config-ETag).',
    responseStatus: 200,
    response: named('SdkConfig', SdkConfigResponse),
    responseHeaders: {
      'X-Config-ETag': 'Content tag of this configuration; SDKs refetch when an answer carries another.',
      'X-Moesif-Config-ETag': 'The same tag under the header name existing SDKs read.',
    },
  },
  rules: {
    description: 'The governance rules of the calling app, as SDKs apply them.',
    responseStatus: 200,
    response: z.array(named('SdkRule', SdkRule)),
  },
  probe: {
    description: 'Liveness probe; needs no application id. 503 while the service is still starting (locally, until its emulators and credentials are ready).',
    responseStatus: 200,
    response: Probe,
    errors: [503],
  },
};
