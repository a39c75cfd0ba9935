import { useParams } from 'react-router';
import { UnsubscribeForm } from '../../features/emails/components/unsubscribe-form';

/** Opened from the link in a behavioural email, without signing in. */
export function UnsubscribePage() {
  const { token = '' } = useParams();
  return (
    <main id="main" className="sign-in-page">
      <h1>Email preferences</h1>
      <UnsubscribeForm token={token} />
    </main>
  );
}
