import { PageHeader } from '../../components/page-header';
import { ExportsPageBody } from '../../features/exports/components/exports-page-body';

export function ExportsPage() {
  return (
    <>
      <PageHeader title="Exports" />
      <ExportsPageBody />
    </>
  );
}
