import { createHash } from 'node:crypto';
import {
  EncryptedKeyCreate,
  EncryptedKeyCreateList,
  EncryptedKeyUpdate,
  EncryptedKeyListQuery,
  KeyMonth,
  type EncryptedKeySummary,
} from '../../../schemas/resources/keystore';
import { ValidationError, type FieldIssue } from '../../shared/errors';
import { readJsonBody } from '../../shared/http/body';
import { contextOf, crudOperations, listOptions, MAX_RESOURCE_BODY_BYTES, parseBody, type CrudKind, type ResourceContext, type SystemFields } from '../crud-operations';
import { namedOperations, type ResourceDeps, type ResourceOperationTable } from '../resource-deps';
import { newResourceId, type StoredDocument } from '../resource-store';
import { filteredList } from './filtered-list';
import { inApp, nextPageHeader } from './references';

export const ENCRYPTED_KEY_PREFIX = 'KEY';

/**
 * The secure proxy's keystore: `/~/keystore` (+ `/{keyId}`). Keys arrive already wrapped by the
 * customer's master key; the service stores them as given and can decrypt nothing. Even wrapped,
 * the material is answered only by `GET /~/keystore/{keyId}` (the proxy fetches the key it needs):
 * lists and create/update answers carry the key's metadata and `fingerprint`, never
 * `encrypted_key`. One key per (type, month): a second one is a 400 (update the first to re-wrap).
 */
export function keystoreOperations(deps: ResourceDeps): ResourceOperationTable {
  const now = deps.now ?? (() => new Date());
  const at = (ctx: ResourceContext) => inApp(ctx, ENCRYPTED_KEY_PREFIX);
  const kind: CrudKind<EncryptedKeyCreate, EncryptedKeyUpdate> = {
    noun: 'encrypted key',
    prefix: ENCRYPTED_KEY_PREFIX,
    idParam: 'keyId',
    createSchema: EncryptedKeyCreate,
    updateSchema: EncryptedKeyUpdate,
    toStored: (input, ctx, system) => storedKey(input, ctx, system),
    applyUpdate: (current, input) => ({
      ...current,
      ...(input.master_key_id === undefined ? {} : { master_key_id: input.master_key_id }),
      ...(input.encrypted_key === undefined ? {} : { encrypted_key: input.encrypted_key, fingerprint: fingerprint(input.encrypted_key) }),
    }),
    immutable: ['month', 'type'],
    toDocument: summary,
  };
  const crud = crudOperations(kind, deps);

  return {
    ...namedOperations('keystore', crud),
    'keystore.get': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      return { status: 200, body: await deps.store.get(at(ctx), request.pathParams.keyId ?? '', 'encrypted key') };
    },

    'keystore.create': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const raw = readJsonBody(request, MAX_RESOURCE_BODY_BYTES);
      // Parsed by shape, so a bad field is named (a union would only say the body matched neither form).
      const isList = Array.isArray(raw);
      const keys = isList ? parseBody(EncryptedKeyCreateList, raw) : [parseBody(EncryptedKeyCreate, raw)];
      await assertNewSlots(deps, ctx, keys, isList);
      const created: StoredDocument[] = [];
      for (const [i, key] of keys.entries()) {
        // +i ms: ids of one batch sort in the body's order (lists show the last item as newest).
        const id = newResourceId(Date.parse(ctx.now) + i);
        const stored = storedKey(key, ctx, { _id: id, org_id: ctx.orgId, app_id: ctx.appId, created_at: ctx.now, modified_at: ctx.now });
        if (!(await deps.store.create(at(ctx), id, stored))) throw new Error(`encrypted key id ${id} already taken`);
        created.push(stored);
      }
      const answer = created.map(summary);
      return { status: 201, body: isList ? answer : answer[0] };
    },

    'keystore.list': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const options = listOptions(request.query);
      const query = parseBody(EncryptedKeyListQuery, request.query);
      const from = query.from === undefined ? undefined : monthOf(query.from, 'from');
      const to = query.to === undefined ? undefined : monthOf(query.to, 'to');
      const page = await filteredList(
        deps.store,
        at(ctx),
        query.type === undefined ? options : { ...options, where: { attribute: 'type', value: query.type } },
        (doc) => (from === undefined || String(doc.month) >= from) && (to === undefined || String(doc.month) <= to),
      );
      return { status: 200, body: page.items.map((item) => summary(item.document)), headers: nextPageHeader(page.nextBeforeId) };
    },
  };
}

function storedKey(input: EncryptedKeyCreate, ctx: ResourceContext, system: SystemFields): StoredDocument {
  return { ...system, auth_user_id: ctx.caller.sub, ...input, fingerprint: fingerprint(input.encrypted_key) };
}

/** SHA-256 of the wrapped bytes, 16 hex digits: tells keys apart without showing them. */
function fingerprint(encryptedKey: string): string {
  return createHash('sha256').update(Buffer.from(encryptedKey, 'base64')).digest('hex').slice(0, 16);
}

/** The stored key without its material. */
function summary(stored: StoredDocument): EncryptedKeySummary {
  const { encrypted_key: _material, ...rest } = stored;
  return rest as EncryptedKeySummary;
}

/** `from` / `to`: a month `YYYY-MM` or a date-time (its UTC month). */
function monthOf(value: string, field: string): string {
  if (KeyMonth.safeParse(value).success) return value;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new ValidationError(`${field} must be a month YYYY-MM or a date-time`, [{ field, reason: 'is not a month or date-time' }]);
  return new Date(time).toISOString().slice(0, 7);
}

/** No two keys for one (type, month): neither within the body nor with a stored key. */
async function assertNewSlots(deps: ResourceDeps, ctx: ResourceContext, keys: readonly EncryptedKeyCreate[], isList: boolean): Promise<void> {
  const fieldOf = (i: number) => (isList ? `[${i}].month` : 'month');
  const issues: FieldIssue[] = [];
  const seen = new Map<string, number>();
  keys.forEach((key, i) => {
    const slot = `${key.type}|${key.month}`;
    if (seen.has(slot)) issues.push({ field: fieldOf(i), reason: `repeats the ${key.type} key for ${key.month} of item ${seen.get(slot)}` });
    else seen.set(slot, i);
  });
  const months = [...new Set(keys.map((key) => key.month))];
  for (const month of months) {
    const page = await filteredList(deps.store, inApp(ctx, ENCRYPTED_KEY_PREFIX), { take: 1000, where: { attribute: 'month', value: month } }, () => true);
    for (const item of page.items) {
      const i = keys.findIndex((key) => key.month === month && key.type === item.document.type);
      if (i >= 0) issues.push({ field: fieldOf(i), reason: `a ${keys[i]!.type} key for ${month} exists (${item.id}); update it instead` });
    }
  }
  if (issues.length > 0) throw new ValidationError(`Duplicate keys: ${issues.map((i) => i.field).join(', ')}`, issues);
}
