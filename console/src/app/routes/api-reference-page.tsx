import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { ApiReference } from '../../features/api-reference/components/api-reference';

/** The endpoint reference, open to anyone (the documents need no credentials), also at the management API's /docs. */
export function ApiReferencePage({ collectorUrl }: { collectorUrl?: string }) {
  return (
    <main className="api-reference">
      <PageHeader title="API reference">
        <Link to="/events">Open the console</Link>
      </PageHeader>
      <ApiReference {...(collectorUrl ? { collectorUrl } : {})} />
    </main>
  );
}
