import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { ProfileSearch } from '../../features/customers/components/profile-search';
import type { ProfileKind } from '../../features/customers/utils/profile-query';

/** Finding users and companies; the search lives in the URL. */
export function CustomersPage() {
  const [params, setParams] = useSearchParams();
  const kind: ProfileKind = params.get('kind') === 'companies' ? 'companies' : 'users';
  const text = params.get('q') ?? '';
  return (
    <>
      <PageHeader title="Customers" />
      <ProfileSearch
        key={params.toString()}
        kind={kind}
        text={text}
        onSearch={(nextKind, nextText) => setParams(new URLSearchParams({ kind: nextKind, ...(nextText ? { q: nextText } : {}) }))}
      />
    </>
  );
}
