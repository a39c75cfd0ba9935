import { Link, useParams, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { EventDetail } from '../../features/events/components/event-detail';

export function EventPage() {
  const { eventId = '' } = useParams();
  const [params] = useSearchParams();
  return (
    <>
      <PageHeader title="Event">
        <Link to="/events">Back to the stream</Link>
      </PageHeader>
      <EventDetail eventId={eventId} eventTime={params.get('time') ?? undefined} />
    </>
  );
}
