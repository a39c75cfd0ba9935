import * as z from 'zod';
import { DEFAULT_TAKE, ID_SHAPE, MAX_TAKE } from '../../resources/resource-store';

/** The shape of a route's OpenAPI description and the helpers every area uses. */
export interface RouteSchema {
  readonly description: string;
  /** Query parameters: one property each (strings on the wire). */
  readonly query?: z.ZodObject;
  /** Path parameters' descriptions; every `{param}` of the path is a required string either way. */
  readonly params?: Readonly<Record<string, string>>;
  readonly body?: z.ZodType;
  /** Operations that treat an empty body as `{}` (the search DSL) say so. */
  readonly bodyOptional?: boolean;
  /** Media types the body may come as; default application/json. */
  readonly bodyMediaTypes?: readonly string[];
  readonly responseStatus: number;
  /** A second success status with the same body (e.g. 200 when a POST replaces what it would create). */
  readonly alsoStatus?: { readonly status: number; readonly description: string };
  readonly response?: z.ZodType;
  /** Headers of the success answer (name → what it says). */
  readonly responseHeaders?: Readonly<Record<string, string>>;
  readonly errors?: readonly ErrorStatus[];
  /** Runs a query of the index within its budget: may answer 504 (and 429 when the org runs too many). */
  readonly runsQuery?: boolean;
  /**
   * Statuses answered with another body than the service's error shape (the token URL answers
   * RFC 6749 errors); they replace the derived ones.
   */
  readonly ownErrors?: { readonly statuses: readonly ErrorStatus[]; readonly schema: z.ZodType; readonly description: string };
}

export type ErrorStatus = 400 | 401 | 402 | 404 | 406 | 409 | 410 | 413 | 415 | 429 | 503 | 504;

/** A name for a schema in the documents' `components.schemas` (the generator turns it into a $ref). */
export const named = <T extends z.ZodType>(name: string, schema: T): T => schema.meta({ id: name }) as T;

// ── Management: managed resources (the generic CRUD of functions/resources/crud-operations.ts) ──

export const ListQuery = z.object({
  take: z
    .int()
    .min(1)
    .max(MAX_TAKE)
    .optional()
    .meta({ description: `Page size, 1–${MAX_TAKE}; default ${DEFAULT_TAKE}.` }),
  before_id: z.string().regex(ID_SHAPE).optional().meta({ description: 'The x-next-before-id of the previous page.' }),
});
export const NEXT_PAGE = { 'x-next-before-id': 'Present when another page may follow: pass it as before_id.' };

export interface CrudSpec {
  readonly noun: string;
  readonly plural: string;
  readonly idParam: string;
  readonly create: z.ZodType;
  readonly update: z.ZodType;
  readonly document: z.ZodType;
  /** Creates can conflict with what is stored (a unique name, a count limit): a 409. */
  readonly createConflicts?: true;
  /** The list's filter parameters beyond take and before_id. */
  readonly filters?: z.ZodObject;
  /** Updates must repeat a field unchanged, or the service sets fields an update may echo. */
  readonly updateNote?: string;
}

/** The five entries of a managed kind: `<name>.list`, `.get`, `.create`, `.update`, `.delete`. */
export function crud(name: string, spec: CrudSpec): Record<string, RouteSchema> {
  const { document } = spec;
  const params = { [spec.idParam]: `The ${spec.noun}'s id.` };
  return {
    [`${name}.list`]: {
      description: `The app's ${spec.plural}, newest first, a page at a time.`,
      query: spec.filters ? ListQuery.extend(spec.filters.shape) : ListQuery,
      responseStatus: 200,
      response: z.array(document),
      responseHeaders: NEXT_PAGE,
    },
    [`${name}.get`]: { description: `One ${spec.noun}.`, params, responseStatus: 200, response: document, errors: [404, 410] },
    [`${name}.create`]: {
      description: `Creates a ${spec.noun}. Nothing is written unless the whole body is valid.`,
      body: spec.create,
      responseStatus: 201,
      response: document,
      ...(spec.createConflicts ? { errors: [409] } : {}),
    },
    [`${name}.update`]: {
      description: `Updates a ${spec.noun} with the fields given. Fields the service sets may be echoed unchanged; a changed one is a 409 naming it.${spec.updateNote ? ` ${spec.updateNote}` : ''}`,
      params,
      body: spec.update,
      responseStatus: 200,
      response: document,
      // 503: a concurrent change won the race; retry.
      errors: [404, 409, 410, 503],
    },
    [`${name}.delete`]: { description: `Deletes a ${spec.noun}; afterwards its id answers 410.`, params, responseStatus: 204, errors: [404, 410] },
  };
}

export const SystemFields = { _id: z.string(), org_id: z.string(), app_id: z.string(), created_at: z.string(), modified_at: z.string() };
