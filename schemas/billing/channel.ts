import * as z from 'zod';
import { literalTargetProblem } from '../../values/network-address';

/**
 * Webhook channels (`/~/billing/channels`): where the webhook provider delivers signed usage reports.
 * The signing secret is write-only: the API shows it once (in the answer that created or rotated it)
 * and otherwise only its last four characters.
 */

export const ChannelStatus = z.enum(['active', 'inactive']);
export type ChannelStatus = z.infer<typeof ChannelStatus>;

/**
 * Loopback hosts may use plain http (a receiver on the same machine); every other URL must be https.
 * Whether loopback and private addresses are accepted at all is a deployment setting (withTargetPolicy).
 */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export const ChannelUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .max(2048)
  .refine(
    (text) => {
      // Runs after a failed url check too: only a parsable URL can break the https rule.
      if (!URL.canParse(text)) return true;
      const url = new URL(text);
      return url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname);
    },
    { message: 'must use https (http is allowed for localhost only)' },
  );

/**
 * Headers the service sets on every delivery; a channel cannot replace them (a receiver must be able
 * to trust the signature and content type it sees).
 */
export const RESERVED_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'host',
  'transfer-encoding',
  'connection',
  'x-usage-signature',
  'x-usage-event-id',
];

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;

export const ChannelHeaders = z
  .record(
    z
      .string()
      .regex(HEADER_NAME, 'is not a valid HTTP header name')
      .refine((name) => !RESERVED_HEADERS.includes(name.toLowerCase()), { message: 'is set by the service and cannot be overridden' }),
    // No CR/LF: a header value must not smuggle further headers.
    z
      .string()
      .max(4096)
      .regex(/^[^\r\n]*$/, 'must not contain line breaks'),
  )
  .refine((headers) => Object.keys(headers).length <= 20, { message: 'at most 20 headers' });

/** Long enough that guessing is hopeless, short enough for any receiver's config field. */
export const ChannelSecret = z.string().min(16, 'must be at least 16 characters').max(256);

export const ChannelCreate = z.strictObject({
  name: z.string().min(1).max(256),
  url: ChannelUrl,
  /** Omitted: the service generates one (`whsec_` + 32 random bytes, base64url). */
  secret: ChannelSecret.optional(),
  status: ChannelStatus.default('active'),
  headers: ChannelHeaders.optional(),
});
export type ChannelCreate = z.infer<typeof ChannelCreate>;

export const ChannelUpdate = z.strictObject({
  name: z.string().min(1).max(256).optional(),
  url: ChannelUrl.optional(),
  /** A new secret; the previous one keeps signing deliveries (as a second signature) for 24 h. */
  secret: ChannelSecret.optional(),
  /** `true`: the service generates the new secret (shown once in this answer). */
  rotate_secret: z.boolean().optional(),
  status: ChannelStatus.optional(),
  /** Replaces all headers; `{}` removes them. */
  headers: ChannelHeaders.optional(),
});
export type ChannelUpdate = z.infer<typeof ChannelUpdate>;

/**
 * A channel body schema under the deployment's target policy (WEBHOOK_ALLOW_PRIVATE_TARGETS): unless
 * private targets are allowed, a URL whose host is a loopback name or a literal loopback, private,
 * link-local, metadata or otherwise non-public address is a 400 on `url`. Host names are checked
 * again against what they resolve to at every delivery (guarded-fetch.ts).
 */
export function withTargetPolicy<S extends z.ZodType<{ url?: string | undefined }>>(schema: S, allowPrivateTargets: boolean): S {
  if (allowPrivateTargets) return schema;
  return schema.superRefine((value, ctx) => {
    if (value.url === undefined || !URL.canParse(value.url)) return;
    const problem = literalTargetProblem(new URL(value.url).hostname);
    if (problem)
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: `${problem}; this deployment delivers only to public addresses (WEBHOOK_ALLOW_PRIVATE_TARGETS is off)`,
      });
  });
}

/** The stored item (besides pk/sk): secrets included, never answered as they are. */
export const StoredChannel = z.object({
  _id: z.string(),
  org_id: z.string(),
  app_id: z.string(),
  name: z.string(),
  url: z.string(),
  secret: z.string(),
  previous_secret: z.string().optional(),
  /** ISO time after which `previous_secret` no longer signs. */
  previous_secret_expires_at: z.string().optional(),
  status: ChannelStatus,
  headers: z.record(z.string(), z.string()).optional(),
  created_at: z.string(),
  modified_at: z.string(),
});
export type StoredChannel = z.infer<typeof StoredChannel>;

/** `POST /~/billing/meters/{id}/webhooks/channels/test` body (optional). */
export const ChannelTestRequest = z.strictObject({
  /** Test this channel instead of the meter's `webhook_params.channel_ids`. */
  channel_id: z.string().min(1).max(128).optional(),
});
export type ChannelTestRequest = z.infer<typeof ChannelTestRequest>;
