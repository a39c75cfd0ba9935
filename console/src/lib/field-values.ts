import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { dataOf } from './api-client';
import { useApi } from './api-context';
import { pickableFields, VALUES_SHOWN, VALUES_WINDOW, type PickableField } from './field-clauses';

/**
 * What filters, funnel steps and groupings are picked from: the fields the app's events hold and
 * the top values of one, so nobody has to know the query syntax or the data by heart.
 */

/**
 * The fields of the app's events, for pickers. Asked for only once `wanted` (a picker was focused):
 * listing them reads the last 30 days of events, which would otherwise compete with the page's own
 * queries on every page showing a picker. A picker not yet wanted still reads what another fetched.
 */
export function useEventFields(wanted = true) {
  const api = useApi();
  return useQuery({
    queryKey: ['events', 'fields'],
    enabled: wanted,
    staleTime: 60_000,
    queryFn: async () => pickableFields(dataOf(await api.GET('/search/~/mappings/events/properties', { params: { query: VALUES_WINDOW } })).properties),
  });
}

/** The value after it has stopped changing for `ms`, so type-ahead asks once per pause rather than per key. */
export function useSettled<T>(value: T, ms = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The most frequent values of a field in the last 30 days; for keyword fields, those starting with
 * what was typed (asked of the server, so values beyond the top ones are found too).
 */
export function useFieldValues(field: PickableField | undefined, typed: string) {
  const api = useApi();
  const prefix = useSettled(typed.trim());
  const byPrefix = field?.type === 'keyword' && prefix !== '';
  return useQuery({
    queryKey: ['events', 'field-values', field?.name, byPrefix ? prefix : ''],
    enabled: field !== undefined,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    queryFn: async () => {
      const name = field!.name;
      const answer = dataOf(
        await api.POST('/search/~/search/events', {
          params: { query: VALUES_WINDOW },
          body: {
            size: 0,
            query: byPrefix ? { prefix: { [name]: prefix } } : { match_all: {} },
            aggs: { values: { terms: { field: name, size: VALUES_SHOWN } } },
          },
        }),
      );
      const buckets = (answer.aggregations?.['values'] as { buckets?: { key: unknown; doc_count: number }[] } | undefined)?.buckets ?? [];
      return buckets.map((bucket) => ({ value: String(bucket.key), count: bucket.doc_count }));
    },
  });
}
