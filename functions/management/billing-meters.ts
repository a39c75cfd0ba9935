import { BillingMeterCreate, BillingMeterUpdate } from '../../schemas/resources/billing-meter';
import { ValidationError } from '../shared/errors';
import { crudOperations, type CrudKind } from '../resources/crud-operations';
import { namedOperations, type ResourceDeps, type ResourceOperationTable } from '../resources/resource-deps';
import { parseCriteria } from '../search/stored-criteria';

export const METER_PREFIX = 'METER';

/** Placeholders billing fills per customer; stand-ins let the query be checked like any other. */
const PLACEHOLDERS: Record<string, string> = { '{{company_id}}': 'placeholder-company-id', '{{subscription_id}}': 'placeholder-subscription-id' };
const PLACEHOLDER = /\{\{(company_id|subscription_id)\}\}/g;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

function substitute(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(PLACEHOLDER, (match) => PLACEHOLDERS[match] ?? match);
  if (Array.isArray(value)) return value.map(substitute);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v)]));
  return value;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The query as an object: given as one, as JSON text, or as base64 of JSON text. */
function decodeEsQuery(input: Record<string, unknown> | string): Record<string, unknown> {
  if (isObject(input)) return input;
  const text = input.trim();
  const candidates = [text];
  if (BASE64.test(text)) candidates.push(Buffer.from(text, 'base64').toString('utf8'));
  for (const candidate of candidates) {
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (isObject(parsed)) return parsed;
    } catch {
      // try the next reading
    }
  }
  throw new ValidationError('es_query must be a search body: an object, its JSON text, or base64 of that JSON', [
    { field: 'es_query', reason: 'not a JSON object, JSON text of one, or base64 of JSON text of one' },
  ]);
}

/** Checked as an events search body (placeholders substituted), stored as the JSON text of what was given. */
export function normaliseEsQuery(input: Record<string, unknown> | string): string {
  const query = decodeEsQuery(input);
  parseCriteria(substitute(query) as Record<string, unknown>, 'events', 'es_query', 'body');
  return JSON.stringify(query);
}

/**
 * Billing meters (`/~/billing/meters`): which events count (`es_query`) and how usage is reported to a
 * billing provider (`billing_plan`). CRUD only here; the billing run reads active meters.
 */
export function billingMeterKind(): CrudKind<BillingMeterCreate, BillingMeterUpdate> {
  return {
    noun: 'billing meter',
    prefix: METER_PREFIX,
    idParam: 'meterId',
    createSchema: BillingMeterCreate,
    updateSchema: BillingMeterUpdate,
    toStored: (input, _ctx, system) => ({ ...system, ...input, es_query: normaliseEsQuery(input.es_query) }),
    applyUpdate: (current, input) =>
      input.es_query === undefined ? { ...current, ...input } : { ...current, ...input, es_query: normaliseEsQuery(input.es_query) },
  };
}

export function billingMeterOperations(deps: ResourceDeps): ResourceOperationTable {
  return namedOperations('billingMeters', crudOperations(billingMeterKind(), deps));
}
