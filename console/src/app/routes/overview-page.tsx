import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { Overview } from '../../features/overview/components/overview';

/** The home page: the app's API traffic at a glance. */
export function OverviewPage() {
  return (
    <>
      <PageHeader title="Overview">
        <Link to="/events">Events</Link> <Link to="/dashboards">Dashboards</Link>
      </PageHeader>
      <Overview />
    </>
  );
}
