import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { EventFilterBar } from '../../features/events/components/event-filters';
import { EventStream } from '../../features/events/components/event-stream';
import { VirtualEventTypes } from '../../features/events/components/virtual-event-types';
import { filtersFromParams, paramsFromFilters } from '../../features/events/utils/stream-query';

/** The live event stream; its filters live in the URL. */
export function EventsPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  return (
    <>
      <PageHeader title="Events">
        <Link to="/event-types">Virtual event types</Link>
      </PageHeader>
      <EventFilterBar key={params.toString()} filters={filters} onChange={(next) => setParams(paramsFromFilters(next))} />
      <EventStream filters={filters} />
    </>
  );
}

export function VirtualEventTypesPage() {
  return (
    <>
      <PageHeader title="Virtual event types">
        <Link to="/events">Events</Link>
      </PageHeader>
      <VirtualEventTypes />
    </>
  );
}
