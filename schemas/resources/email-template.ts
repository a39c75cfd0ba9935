import * as z from 'zod';
import { StoredObject } from '../stored-json';

/** Addresses are plain `local@domain` (no display names): the sender's provider takes them as they are. */
// RFC 5321: a local part (before the @) of at most 64 characters; the email format of the documents checks it too.
const EmailAddress = z
  .email({ message: 'is not an email address' })
  .max(254)
  .refine((address) => address.slice(0, address.lastIndexOf('@')).length <= 64, { message: 'has a local part (before the @) over 64 characters' });

/** Spec: EmailAddresses, every field required (cc and bcc may be empty lists). */
export const EmailAddresses = z.strictObject({
  from: EmailAddress,
  cc: z.array(EmailAddress).max(50),
  bcc: z.array(EmailAddress).max(50),
});

/** Spec: CohortConfig, a snapshot of the cohort a template was built for; every field required. */
export const CohortConfig = z.strictObject({
  criteria: z.string(),
  url_query: z.string(),
  cohort_name: z.string(),
  cohort_type: z.string(),
  from: z.string(),
  to: z.string(),
  time_zone: z.string(),
});

/** Spec: Cohort reference. `id` must name a cohort of the same app; `type` is its cohort_type. */
export const CohortReference = z.strictObject({
  id: z.string().min(1).max(128),
  type: z.enum(['user', 'company']),
  config: CohortConfig.optional(),
});
export type CohortReference = z.infer<typeof CohortReference>;

/** Spec: TemplateConfig. */
export const TemplateConfig = z.strictObject({
  subject: z.string().min(1).max(998),
  editor: z.string().min(1).max(64),
  design: StoredObject,
  thumbnail_url: z.url().optional(),
});

/** Spec: TemplateContent. */
export const TemplateContent = z.strictObject({
  html: z.string().max(300_000),
  chunks: StoredObject,
});

/** Spec: DynamicField: a `{{token}}` in the template filled with an aggregate of an event or profile field. */
export const DynamicField = z.strictObject({
  token: z.string().min(1).max(128),
  field: z.string().min(1).max(512),
  aggregator: z.enum(['avg', 'min', 'max', 'terms', 'sum']),
});

/** Template states: 0 draft (never sent), 1 active (sent to its cohorts), 2 paused. */
export const EmailTemplateState = z.union([z.literal(0), z.literal(1), z.literal(2)], { message: 'must be 0 (draft), 1 (active) or 2 (paused)' });

/** How often an active template is sent: a count and a unit (`1d`, `7d`, `1w`, `1M`), the spec's relative-date units. */
export const EmailPeriod = z.string().regex(/^[1-9][0-9]{0,3}[mhdwM]$/, { message: 'must be a count and a unit m, h, d, w or M, e.g. 1w' });

const MAX_COHORTS = 50;
const MAX_DYNAMIC_FIELDS = 100;

/** Spec: EmailTemplateCreateItem. */
export const EmailTemplateCreate = z.strictObject({
  name: z.string().min(1).max(256),
  state: EmailTemplateState,
  addresses: EmailAddresses,
  cohorts: z.array(CohortReference).max(MAX_COHORTS),
  template: TemplateConfig,
  content: TemplateContent,
  dynamic_fields: z.array(DynamicField).max(MAX_DYNAMIC_FIELDS).optional(),
  period: EmailPeriod.optional(),
});
export type EmailTemplateCreate = z.infer<typeof EmailTemplateCreate>;

/** Spec: EmailTemplateUpdateItem, the same fields, all optional. */
export const EmailTemplateUpdate = EmailTemplateCreate.partial();
export type EmailTemplateUpdate = z.infer<typeof EmailTemplateUpdate>;

/** The stored document: the create fields plus identity and times. */
export const EmailTemplateDocument = EmailTemplateCreate.extend({
  _id: z.string(),
  org_id: z.string(),
  app_id: z.string(),
  auth_user_id: z.string(),
  created_at: z.string(),
  modified_at: z.string(),
});
export type EmailTemplateDocument = z.infer<typeof EmailTemplateDocument>;
