import type { SearchRequest } from '../../schemas/search-tree';
import { parseSearchRequest } from '../search/dsl';
import type { SearchableIndex, TenantScope } from '../search/port';
import type { EmailPeriod } from './email-periods';

/**
 * A template's dynamic fields per member: each `{token, field, aggregator}` computed over the
 * member's events in the period (avg, min, max, sum of a numeric field; terms: its most frequent
 * values), for many members in one grouped search instead of one search per member.
 */

export interface DynamicFieldSpec {
  readonly token: string;
  readonly field: string;
  readonly aggregator: 'avg' | 'min' | 'max' | 'terms' | 'sum';
}

/** What a template shows of a `terms` field: its most frequent values. */
export const TERMS_SHOWN = 5;
/** Members per grouped search. */
export const MEMBERS_PER_SEARCH = 500;

export type DynamicValues = Record<string, string>;

/** Values per member id; a member without events in the period gets the empty values (0 for sums, '' otherwise). */
export async function dynamicValues(
  index: SearchableIndex,
  scope: TenantScope,
  kind: 'user' | 'company',
  memberIds: readonly string[],
  fields: readonly DynamicFieldSpec[],
  period: EmailPeriod,
  timeZone: string,
): Promise<Map<string, DynamicValues>> {
  const values = new Map<string, DynamicValues>();
  const empty = Object.fromEntries(fields.map((field) => [field.token, field.aggregator === 'sum' ? '0' : '']));
  for (const id of memberIds) values.set(id, { ...empty });
  if (fields.length === 0 || memberIds.length === 0) return values;
  const idField = kind === 'user' ? 'user_id.raw' : 'company_id.raw';
  for (let i = 0; i < memberIds.length; i += MEMBERS_PER_SEARCH) {
    const batch = memberIds.slice(i, i + MEMBERS_PER_SEARCH);
    const request: SearchRequest = parseSearchRequest(
      {
        size: 0,
        query: { bool: { filter: [{ terms: { [idField]: batch } }] } },
        aggs: {
          members: {
            terms: { field: idField, size: batch.length },
            aggs: Object.fromEntries(
              fields.map((field, k) => [
                `f${k}`,
                field.aggregator === 'terms' ? { terms: { field: field.field, size: TERMS_SHOWN } } : { [field.aggregator]: { field: field.field } },
              ]),
            ),
          },
        },
      },
      'events',
      { timeZone },
    );
    const answer = await index.search({ scope, kind: 'events', range: { from: period.start, to: period.end }, timeZone, now: period.end }, request);
    const buckets = (answer.aggregations?.['members'] as { buckets?: Record<string, unknown>[] } | undefined)?.buckets ?? [];
    for (const bucket of buckets) {
      const member = values.get(String(bucket['key']));
      if (!member) continue;
      fields.forEach((field, k) => {
        member[field.token] = shown(field, bucket[`f${k}`]);
      });
    }
  }
  return values;
}

/** A value as the email shows it: numbers rounded to 2 decimals (integers as they are), terms as a list. */
function shown(field: DynamicFieldSpec, aggregate: unknown): string {
  const result = (aggregate ?? {}) as { value?: unknown; buckets?: { key?: unknown }[] };
  if (field.aggregator === 'terms') return (result.buckets ?? []).map((bucket) => String(bucket.key)).join(', ');
  if (typeof result.value !== 'number' || !Number.isFinite(result.value)) return field.aggregator === 'sum' ? '0' : '';
  return Number.isInteger(result.value) ? String(result.value) : String(Math.round(result.value * 100) / 100);
}
