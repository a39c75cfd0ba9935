import { isDeepStrictEqual } from 'node:util';
import type * as z from 'zod';
import type { ManagementCaller } from '../management-tokens/management-auth';
import { appRulesPartition } from './keys';
import { invalidInput, parseBody } from '../shared/invalid-input';
import { ConflictError, UnauthorizedError, ValidationError, type FieldIssue } from '../shared/errors';
import { readJsonBody } from '../shared/http/body';
import type { Operation } from '../shared/http/handler';
import type { HttpRequest, OperationResult } from '../shared/http/types';
import {
  DEFAULT_TAKE,
  MAX_TAKE,
  isPlausibleId,
  newResourceId,
  type ListOptions,
  type ResourceLocation,
  type ResourceStore,
  type StoredDocument,
  type TransactItems,
} from './resource-store';

/** Management bodies are small documents; anything bigger is a mistake or an attack. */
export const MAX_RESOURCE_BODY_BYTES = 1_000_000;

/** Fields the service owns on every stored document: a body may repeat them unchanged, never change them. */
export const SYSTEM_FIELDS = ['_id', 'org_id', 'app_id', 'created_at', 'modified_at'] as const;

/** Who is asking, for which org and app, and when. */
export interface ResourceContext {
  readonly caller: ManagementCaller;
  readonly orgId: string;
  readonly appId: string;
  readonly request: HttpRequest;
  /** ISO time of this request (created_at / modified_at of what it writes). */
  readonly now: string;
}

export interface CrudKind<Create, Update> {
  /** Singular noun for messages: "cohort". */
  readonly noun: string;
  /** Sort-key prefix without `#`: "COHORT" → `COHORT#<id>`. */
  readonly prefix: string;
  /** Name of the route's id path parameter: `/~/cohorts/{cohortId}` → "cohortId". */
  readonly idParam: string;
  /** Partition of the kind's items; default: the caller's app (`ORG#<org>#APP#<app>`). */
  readonly location?: (ctx: ResourceContext) => ResourceLocation;
  readonly createSchema: z.ZodType<Create>;
  readonly updateSchema: z.ZodType<Update>;
  /**
   * The stored document of a new resource from the validated body. May check more (cohort ids,
   * regexes) and throw ValidationError; nothing is written then. `system` holds _id, org_id, app_id,
   * created_at and modified_at: spread it in unless the kind stores them differently.
   */
  readonly toStored: (input: Create, ctx: ResourceContext, system: SystemFields) => StoredDocument | Promise<StoredDocument>;
  /** The next stored document from the current one and a validated update body; default: shallow merge. */
  readonly applyUpdate?: (current: StoredDocument, input: Update, ctx: ResourceContext) => StoredDocument | Promise<StoredDocument>;
  /** What the API answers for a stored document; default: the stored fields as they are. */
  readonly present?: (stored: StoredDocument, ctx: ResourceContext) => unknown;
  /**
   * Fields the service sets (default SYSTEM_FIELDS): an update body may echo them as the API showed
   * them; a different value is a 400 naming the field; they are removed before `updateSchema` parses.
   */
  readonly readOnly?: readonly string[];
  /** Fields of the update body that must equal the shown value (400 naming the field otherwise); kept for `updateSchema`. */
  readonly immutable?: readonly string[];
  /** An id the caller chose in the create body (validated by createSchema); absent: one is generated. A taken one is a 409. */
  readonly chosenId?: (input: Create) => string | undefined;
  /** Items written in the same transaction as a new resource (all or nothing). */
  readonly createExtra?: (stored: StoredDocument, ctx: ResourceContext) => TransactItems;
  /** Items written in the same transaction as a deletion. */
  readonly deleteExtra?: (current: StoredDocument, ctx: ResourceContext) => TransactItems;
  /** List filter from query parameters (throw ValidationError naming the parameter). */
  readonly listFilter?: (query: Readonly<Record<string, string>>) => ListOptions['where'] | undefined;
  /** After every successful create, update or delete, with the stored document (the deleted one on delete). */
  readonly onChange?: (ctx: ResourceContext, stored: StoredDocument, change: 'create' | 'update' | 'delete') => Promise<void>;
}

export interface SystemFields {
  _id: string;
  org_id: string;
  app_id: string;
  created_at: string;
  modified_at: string;
}

export interface CrudOperations {
  list: Operation<ManagementCaller | undefined>;
  get: Operation<ManagementCaller | undefined>;
  create: Operation<ManagementCaller | undefined>;
  update: Operation<ManagementCaller | undefined>;
  delete: Operation<ManagementCaller | undefined>;
}

export interface CrudDeps {
  readonly store: ResourceStore;
  readonly now?: () => Date;
}

/**
 * The five operations of a managed resource kind. Answers: list 200 (JSON array, newest first;
 * `x-next-before-id` header when another page may follow), get 200, create 201, update 200 (the
 * stored document), delete 204. Validation runs before anything is written; bad input is a 400
 * naming the field.
 */
export function crudOperations<Create, Update>(kind: CrudKind<Create, Update>, deps: CrudDeps): CrudOperations {
  const now = deps.now ?? (() => new Date());
  const locate = kind.location ?? ((ctx: ResourceContext) => ({ partition: appRulesPartition(ctx.orgId, ctx.appId), prefix: kind.prefix }));
  const render = (stored: StoredDocument, ctx: ResourceContext) => (kind.present ? kind.present(stored, ctx) : stored);
  const idOf = (request: HttpRequest) => request.pathParams[kind.idParam] ?? '';

  return {
    async list(request, caller) {
      const ctx = contextOf(request, caller, now());
      const options = listOptions(request.query);
      const where = kind.listFilter?.(request.query);
      const page = await deps.store.list(locate(ctx), where ? { ...options, where } : options);
      const headers: Record<string, string> = page.nextBeforeId === undefined ? {} : { 'x-next-before-id': page.nextBeforeId };
      return { status: 200, body: page.items.map((item) => render(item.document, ctx)), headers };
    },

    async get(request, caller) {
      const ctx = contextOf(request, caller, now());
      return { status: 200, body: render(await deps.store.get(locate(ctx), idOf(request), kind.noun), ctx) };
    },

    async create(request, caller) {
      const ctx = contextOf(request, caller, now());
      const input = parseBody(kind.createSchema, readObjectBody(request));
      const at = locate(ctx);
      const chosen = kind.chosenId?.(input);
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const id = chosen ?? newResourceId(Date.parse(ctx.now));
        const system: SystemFields = { _id: id, org_id: ctx.orgId, app_id: ctx.appId, created_at: ctx.now, modified_at: ctx.now };
        const stored = await kind.toStored(input, ctx, system);
        if (await deps.store.create(at, id, stored, kind.createExtra?.(stored, ctx))) {
          await kind.onChange?.(ctx, stored, 'create');
          return { status: 201, body: render(stored, ctx) };
        }
        if (chosen !== undefined)
          throw new ConflictError(`A ${kind.noun} with the id ${chosen} exists already`, [{ field: 'id', reason: `is the id of another ${kind.noun}` }]);
      }
      throw new Error(`could not allocate a unique ${kind.noun} id`);
    },

    async update(request, caller) {
      const ctx = contextOf(request, caller, now());
      const body = readObjectBody(request);
      const readOnly = kind.readOnly ?? SYSTEM_FIELDS;
      const fixed = [...readOnly, ...(kind.immutable ?? [])];
      // Echoed read-only fields are checked against what the API shows, then dropped before the schema sees the body.
      const rest = Object.fromEntries(Object.entries(body).filter(([name]) => !readOnly.includes(name)));
      const input = parseBody(kind.updateSchema, rest);
      const stored = await deps.store.update(locate(ctx), idOf(request), kind.noun, async (current, modifiedAt) => {
        assertUnchanged(body, render(current, ctx) as Record<string, unknown>, fixed);
        const next = kind.applyUpdate ? await kind.applyUpdate(current, input, ctx) : { ...current, ...(input as object) };
        return { ...next, modified_at: modifiedAt };
      });
      await kind.onChange?.(ctx, stored, 'update');
      return { status: 200, body: render(stored, ctx) };
    },

    async delete(request, caller) {
      const ctx = contextOf(request, caller, now());
      const deleted = await deps.store.delete(locate(ctx), idOf(request), kind.noun, (current) => kind.deleteExtra?.(current, ctx) ?? []);
      await kind.onChange?.(ctx, deleted, 'delete');
      return { status: 204 } satisfies OperationResult;
    },
  };
}

/** The request's caller as a resource context; `~` paths mean the token's org and app. */
export function contextOf(request: HttpRequest, caller: ManagementCaller | undefined, at: Date): ResourceContext {
  if (!caller) throw new UnauthorizedError('A management token is required');
  return { caller, orgId: caller.org_id, appId: caller.app_id, request, now: at.toISOString() };
}

/** `take` (1–1000, default 50) and `before_id` query parameters. */
export function listOptions(query: Readonly<Record<string, string>>): ListOptions {
  const issues: FieldIssue[] = [];
  let take = DEFAULT_TAKE;
  if (query.take !== undefined) {
    take = Number(query.take);
    if (!/^\d+$/.test(query.take) || take < 1 || take > MAX_TAKE) issues.push({ field: 'take', reason: `must be an integer from 1 to ${MAX_TAKE}` });
  }
  const beforeId = query.before_id;
  if (beforeId !== undefined && !isPlausibleId(beforeId)) issues.push({ field: 'before_id', reason: 'is not a resource id' });
  if (issues.length > 0) throw invalidInput('query parameters', issues);
  return beforeId === undefined ? { take } : { take, beforeId };
}

/** The JSON body, which must be an object. */
export function readObjectBody(request: HttpRequest): Record<string, unknown> {
  const body = readJsonBody(request, MAX_RESOURCE_BODY_BYTES);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('The body must be a JSON object', [{ field: 'body', reason: 'not a JSON object' }]);
  }
  return body as Record<string, unknown>;
}

function assertUnchanged(body: Record<string, unknown>, shown: Record<string, unknown>, fields: readonly string[]): void {
  const issues: FieldIssue[] = [];
  for (const field of fields) {
    // modified_at moves on every write: an echoed older value is not a change request.
    if (field === 'modified_at' || !(field in body)) continue;
    if (!isDeepStrictEqual(body[field], shown[field])) issues.push({ field, reason: 'cannot be changed' });
  }
  if (issues.length > 0) throw new ConflictError(`Immutable fields: ${issues.map((i) => i.field).join(', ')}`, issues);
}
