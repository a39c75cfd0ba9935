import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { EventFilterBar } from '../../features/events/components/event-filters';
import { EventStream } from '../../features/events/components/event-stream';
import { VirtualEventTypes } from '../../features/events/components/virtual-event-types';
import { VoidEventsForm } from '../../features/events/components/void-events-form';
import { VoidLog } from '../../features/events/components/void-log';
import { filtersFromParams, paramsFromFilters } from '../../features/events/utils/stream-query';

/** The live event stream; its filters live in the URL. */
export function EventsPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  return (
    <>
      <PageHeader title="Events">
        <Link to="/event-types">Virtual event types</Link>
        <Link to="/events/voids">Voided events</Link>
      </PageHeader>
      <EventFilterBar key={params.toString()} filters={filters} onChange={(next) => setParams(paramsFromFilters(next))} />
      <VoidEventsForm key={`void-${params.toString()}`} filters={filters} />
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

/** The audit log of voided events. */
export function EventVoidsPage() {
  return (
    <>
      <PageHeader title="Voided events">
        <Link to="/events">Events</Link>
      </PageHeader>
      <VoidLog />
    </>
  );
}
