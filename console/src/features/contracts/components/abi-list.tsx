import { EmptyState } from '../../../components/empty-state';
import { ErrorMessage } from '../../../components/error-message';
import { useAbiPages, useDeleteAbi } from '../api/abis';
import { QueryState } from '../../../components/query-state';

/** The stored ABIs: which contract each decodes, how many functions it names, and a delete button. */
export function AbiList() {
  const abis = useAbiPages();
  const remove = useDeleteAbi();
  const items = abis.data?.pages.flatMap((page) => page.items) ?? [];
  if (!abis.isSuccess) return <QueryState query={abis} loading="Loading contract ABIs…" />;
  if (items.length === 0) {
    return (
      <EmptyState title="No contract ABIs yet">
        <p>
          With an ABI stored, Ethereum JSON-RPC calls in your API calls are indexed with their function and arguments (<code>eth.function</code>,{' '}
          <code>eth.args.*</code>).
        </p>
      </EmptyState>
    );
  }
  return (
    <>
      <ErrorMessage error={remove.error} />
      <table className="event-table" aria-label="Contract ABIs">
        <thead>
          <tr>
            <th scope="col">Contract</th>
            <th scope="col">Name</th>
            <th scope="col">Functions</th>
            <th scope="col">Updated</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((abi) => (
            <tr key={abi._id}>
              <td>{abi.address ? <code>{abi.address}</code> : 'Any contract'}</td>
              <td>{abi.name ?? ''}</td>
              <td>{abi.functions}</td>
              <td>{new Date(abi.modified_at).toLocaleString()}</td>
              <td>
                <button
                  type="button"
                  className="secondary"
                  onClick={() => remove.mutate(abi._id)}
                  disabled={remove.isPending}
                  aria-label={`Delete the ABI of ${abi.address ?? 'any contract'}`}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {abis.hasNextPage && (
        <button type="button" onClick={() => void abis.fetchNextPage()} disabled={abis.isFetchingNextPage}>
          More ABIs
        </button>
      )}
    </>
  );
}
