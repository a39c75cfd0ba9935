import type { UnsubscribeClaims } from '../../schemas/resources/email-send';
import { signUnsubscribeToken } from './unsubscribe-token';

/**
 * An email's two unsubscribe links: `page`, the console page a person opens from the message (it
 * asks: this template or all emails?), and `oneClick`, the API URL mail clients POST to (RFC 8058,
 * the List-Unsubscribe header), which unsubscribes from the template at once.
 */
export function unsubscribeLinks(publicBaseUrl: string, claims: UnsubscribeClaims, signingKey: Buffer): { page: string; oneClick: string } {
  const token = encodeURIComponent(signUnsubscribeToken(claims, signingKey));
  const base = publicBaseUrl.replace(/\/+$/, '');
  return { page: `${base}/console/unsubscribe/${token}`, oneClick: `${base}/public/emails/unsubscribe/${token}` };
}
