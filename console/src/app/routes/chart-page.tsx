import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { ChartPanel } from '../../features/charts/components/chart-panel';
import { ChartSettings } from '../../features/charts/components/chart-settings';
import { SaveWorkspaceForm } from '../../features/charts/components/save-workspace-form';
import { DEFAULT_SPEC, specFromParams, specToParams } from '../../features/charts/utils/chart-spec';
import { useAppTimeZone } from '../../lib/app-time-zone';

/** Builds a chart (its settings live in the URL) and saves it as a workspace. */
export function ChartPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const timeZone = useAppTimeZone();
  // A new chart counts in the app's time zone unless its URL says otherwise.
  const spec = specFromParams(params, { ...DEFAULT_SPEC, timeZone });
  return (
    <>
      <PageHeader title="New chart">
        <Link to="/workspaces">Saved workspaces</Link>
      </PageHeader>
      <ChartSettings key={params.toString()} spec={spec} onChange={(next) => setParams(specToParams(next))} />
      <ChartPanel spec={spec} />
      <SaveWorkspaceForm spec={spec} onSaved={(workspace) => void navigate(`/workspaces/${encodeURIComponent(workspace._id)}`)} />
    </>
  );
}
