import { useParams } from 'react-router';
import { SharedViewContent } from '../../features/charts/components/shared-view';

/** A shared workspace or dashboard, opened from its link without signing in (`embedded`: inside another site's iframe). */
export function SharedViewPage({ embedded }: { embedded: boolean }) {
  const { token = '' } = useParams();
  return (
    <main id="main" className={embedded ? 'embedded-page' : 'shared-page'}>
      <SharedViewContent token={token} embedded={embedded} />
    </main>
  );
}
