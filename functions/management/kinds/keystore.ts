import { createHash } from 'node:crypto';
import {
  EncryptedKeyCreate,
  EncryptedKeyCreateList,
  EncryptedKeyUpdate,
  EncryptedKeyListQuery,
  KeyMonth,
  type EncryptedKeySummary,
} from '../../../schemas/resources/keystore';
import { ConflictError, ValidationError, type FieldIssue } from '../../shared/errors';
import { normaliseDateTime } from '../../../values/iso-date-time';
import { readJsonBody } from '../../shared/http/body';
import {
  contextOf,
  crudOperations,
  listOptions,
  MAX_RESOURCE_BODY_BYTES,
  type CrudKind,
  type ResourceContext,
  type SystemFields,
} from '../../resources/crud-operations';
import { namedOperations, type ResourceDeps, type ResourceOperationTable } from '../../resources/resource-deps';
import { newResourceId, resourceKey, type StoredDocument } from '../../resources/resource-store';
import { filteredList } from '../../resources/filtered-list';
import { inApp, nextPageHeader } from '../../resources/references';
import { parseBody } from '../../shared/invalid-input';

export const ENCRYPTED_KEY_PREFIX = 'KEY';
/**
 * One item per taken (type, month): `KEY_SLOT#<type>#<month>` in the app's partition, written in the
 * key's own transaction with attribute_not_exists, so of two simultaneous creates of one slot exactly
 * one succeeds (the other is the same 409 as a create after it).
 */
export const KEY_SLOT_PREFIX = 'KEY_SLOT';
/** A transaction holds 100 items: a key and its slot each, plus the app's existence check and the kind's registration. */
const KEYS_PER_TRANSACTION = 49;

const slotKey = (ctx: Pick<ResourceContext, 'orgId' | 'appId'>, type: string, month: string) => ({
  pk: inApp(ctx, KEY_SLOT_PREFIX).partition,
  sk: `${KEY_SLOT_PREFIX}#${type}#${month}`,
});

/**
 * The secure proxy's keystore: `/~/keystore` (+ `/{keyId}`). Keys arrive already wrapped by the
 * customer's master key; the service stores them as given and can decrypt nothing. Even wrapped,
 * the material is answered only by `GET /~/keystore/{keyId}` (the proxy fetches the key it needs):
 * lists and create/update answers carry the key's metadata and `fingerprint`, never
 * `encrypted_key`. One key per (type, month): a second one is a 409 (update the first to re-wrap).
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
    present: summary,
    // The slot is freed with the key (a key created before slot items existed has none: deleting nothing is fine).
    deleteExtra: (current, ctx) => [deps.store.deleteItem(slotKey(ctx, String(current.type), String(current.month)))],
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
      // Names the key already holding a slot; the slot items below are what makes two racing creates safe.
      await assertNewSlots(deps, ctx, keys, isList);
      const created = keys.map((key, i) => {
        // +i ms: ids of one batch sort in the body's order (lists show the last item as newest).
        const id = newResourceId(Date.parse(ctx.now) + i);
        return storedKey(key, ctx, { _id: id, org_id: ctx.orgId, app_id: ctx.appId, created_at: ctx.now, modified_at: ctx.now });
      });
      await writeWithSlots(deps, ctx, created, isList);
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
  // The collector's strict ISO 8601 reading: Date.parse would also take "0" or "March 5".
  const time = Date.parse(normaliseDateTime(value) ?? '');
  if (Number.isNaN(time)) throw new ValidationError(`${field} must be a month YYYY-MM or a date-time`, [{ field, reason: 'is not a month or date-time' }]);
  return new Date(time).toISOString().slice(0, 7);
}

/**
 * Writes the keys with their slot items: all at once up to 49 keys; a longer list 49 per transaction,
 * removing what it wrote when a later transaction finds a slot taken (nothing of the list stays).
 */
async function writeWithSlots(deps: ResourceDeps, ctx: ResourceContext, keys: readonly StoredDocument[], isList: boolean): Promise<void> {
  const at = inApp(ctx, ENCRYPTED_KEY_PREFIX);
  const written: StoredDocument[] = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_TRANSACTION) {
    const chunk = keys.slice(start, start + KEYS_PER_TRANSACTION);
    const slots = chunk.map((key) =>
      deps.store.putIfAbsentItem({
        ...slotKey(ctx, String(key.type), String(key.month)),
        key_id: key._id,
        type: key.type,
        month: key.month,
        org_id: ctx.orgId,
        app_id: ctx.appId,
      }),
    );
    const failed = await deps.store.createAll(
      chunk.map((document) => ({ at, id: String(document._id), document })),
      slots,
    );
    if (failed.length === 0) {
      written.push(...chunk);
      continue;
    }
    await deps.store.deleteKeys(written.flatMap((key) => [resourceKey(at, String(key._id)), slotKey(ctx, String(key.type), String(key.month))]));
    if (failed.some((index) => index < chunk.length)) throw new Error('an encrypted key id was already taken');
    const issues: FieldIssue[] = failed.map((index) => {
      const i = start + index - chunk.length;
      return { field: isList ? `[${i}].month` : 'month', reason: `a ${String(keys[i]!.type)} key for ${String(keys[i]!.month)} exists; update it instead` };
    });
    throw new ConflictError(`Duplicate keys: ${issues.map((i) => i.field).join(', ')}`, issues);
  }
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
  if (issues.length > 0) throw new ValidationError(`Duplicate keys: ${issues.map((i) => i.field).join(', ')}`, issues);
  const months = [...new Set(keys.map((key) => key.month))];
  for (const month of months) {
    const page = await filteredList(deps.store, inApp(ctx, ENCRYPTED_KEY_PREFIX), { take: 1000, where: { attribute: 'month', value: month } }, () => true);
    for (const item of page.items) {
      const i = keys.findIndex((key) => key.month === month && key.type === item.document.type);
      if (i >= 0) issues.push({ field: fieldOf(i), reason: `a ${keys[i]!.type} key for ${month} exists (${item.id}); update it instead` });
    }
  }
  if (issues.length > 0) throw new ConflictError(`Duplicate keys: ${issues.map((i) => i.field).join(', ')}`, issues);
}
