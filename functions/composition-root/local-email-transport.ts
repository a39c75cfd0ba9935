import { outboxTransport, smtpTransport } from '../emails/mime-transports';
import type { EmailTransport } from '../emails/email-transport';

/**
 * The local runtime's email transport: the SMTP server at `smtpUrl` (SMTP_URL) when given, else .eml
 * files in `outboxDir`, so nothing leaves the machine unasked. (The Lambdas use SES: email-services.ts.)
 */
export function localEmailTransport(settings: { smtpUrl?: string; outboxDir: string }): EmailTransport {
  return settings.smtpUrl ? smtpTransport(settings.smtpUrl) : outboxTransport(settings.outboxDir);
}
