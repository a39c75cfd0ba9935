import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section className="not-found">
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address in the console. <Link to="/events">Go to the event stream</Link>.
      </p>
    </section>
  );
}
