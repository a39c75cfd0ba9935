import { ChannelCreate, ChannelStatus, ChannelUpdate, withTargetPolicy, type StoredChannel } from '../../../schemas/billing/channel';
import { crudOperations, SYSTEM_FIELDS, type CrudKind } from '../../resources/crud-operations';
import { namedOperations, type ResourceOperationTable } from '../../resources/resource-deps';
import type { StoredDocument } from '../../resources/resource-store';
import { ValidationError } from '../../shared/errors';
import type { HttpRequest } from '../../shared/http/types';
import { CHANNEL_PREFIX } from './channel-reader';
import { channelTestOperations, type ChannelTestDeps } from './channel-test';
import { generateChannelSecret, rotatedSecrets, secretHint } from './channel-secrets';

export type ChannelDeps = ChannelTestDeps;

/** Fields the API shows but the service sets; an update may echo them unchanged. */
const CHANNEL_READ_ONLY = [...SYSTEM_FIELDS, 'secret_hint', 'previous_secret_expires_at'];

/** The API's view of a channel: never a secret, only its hint and when a replaced one stops signing. */
function channelDocument(stored: StoredDocument): Record<string, unknown> {
  const { secret, previous_secret: _previous, previous_secret_expires_at, ...rest } = stored;
  const rotating = typeof previous_secret_expires_at === 'string' ? { previous_secret_expires_at } : {};
  return { ...rest, secret_hint: secretHint(String(secret)), ...rotating };
}

/**
 * Webhook channels `/~/billing/channels`: destinations of the webhook provider's signed deliveries.
 * The secret is write-only: the create answer (and an update answer that sets or rotates it) shows it
 * once; every other answer shows `secret_hint`. A replaced secret keeps signing for 24 h. Also the
 * meter's test delivery (`billingChannels.test`).
 */
export function channelOperations(deps: ChannelDeps): ResourceOperationTable {
  const store = deps.resources;
  // The secret chosen while handling a request, to show it in that request's answer only.
  const revealed = new WeakMap<HttpRequest, string>();
  const secretFor = (request: HttpRequest, given: string | undefined) => {
    const secret = revealed.get(request) ?? given ?? generateChannelSecret();
    revealed.set(request, secret);
    return secret;
  };

  const kind: CrudKind<ChannelCreate, ChannelUpdate> = {
    noun: 'channel',
    prefix: CHANNEL_PREFIX,
    idParam: 'channelId',
    createSchema: withTargetPolicy(ChannelCreate, deps.webhookAllowPrivateTargets ?? false),
    updateSchema: withTargetPolicy(ChannelUpdate, deps.webhookAllowPrivateTargets ?? false),
    readOnly: CHANNEL_READ_ONLY,
    toStored: (input, ctx, system) => ({ ...system, ...input, secret: secretFor(ctx.request, input.secret) }),
    applyUpdate: (current, input, ctx) => {
      const { secret, rotate_secret, ...fields } = input;
      const next: StoredDocument = { ...current, ...stripUndefined(fields) };
      if (secret === undefined && rotate_secret !== true) return next;
      return { ...next, ...rotatedSecrets(current as StoredChannel, secretFor(ctx.request, secret), new Date(ctx.now)) };
    },
    present: channelDocument,
    listFilter: (query) => {
      if (query.status === undefined) return undefined;
      const status = ChannelStatus.safeParse(query.status);
      if (!status.success)
        throw new ValidationError(`status must be one of ${ChannelStatus.options.join(', ')}`, [
          { field: 'status', reason: `must be one of ${ChannelStatus.options.join(', ')}` },
        ]);
      return { attribute: 'status', value: status.data };
    },
  };

  const crud = crudOperations(kind, { store, now: deps.now });
  const withSecret = (request: HttpRequest, body: unknown) => {
    const secret = revealed.get(request);
    return secret === undefined ? body : { ...(body as Record<string, unknown>), secret };
  };

  return {
    ...channelTestOperations(deps),
    ...namedOperations('billingChannels', {
      ...crud,
      async create(request, caller) {
        const result = await crud.create(request, caller);
        return { ...result, body: withSecret(request, result.body) };
      },
      async update(request, caller) {
        const result = await crud.update(request, caller);
        return { ...result, body: withSecret(request, result.body) };
      },
    }),
  };
}

function stripUndefined(input: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}
