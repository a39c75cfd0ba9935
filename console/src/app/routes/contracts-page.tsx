import { PageHeader } from '../../components/page-header';
import { AbiForm } from '../../features/contracts/components/abi-form';
import { AbiList } from '../../features/contracts/components/abi-list';

/** Contract ABIs: what Ethereum JSON-RPC calls in API calls are decoded with. */
export function ContractsPage() {
  return (
    <>
      <PageHeader title="Contracts" />
      <AbiList />
      <section aria-label="New ABI">
        <h2>Add an ABI</h2>
        <AbiForm />
      </section>
    </>
  );
}
