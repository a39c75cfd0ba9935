import { ErrorMessage } from './error-message';
import { Loading } from './loading';

/**
 * What a query shows until it has its data: a spinner with `loading` while it runs, its error in words
 * (with the fields the API named) if it failed. Pages write `if (!query.isSuccess) return <QueryState …/>`,
 * after which the query's data is there; an empty answer is an EmptyState.
 */
export function QueryState({ query, loading }: { query: { readonly error: unknown }; loading: string }) {
  return query.error ? <ErrorMessage error={query.error} /> : <Loading label={loading} />;
}
