import type { ApiError } from './api-error';

/** Why a link's token was refused, in a customer's words, from the reason the API named for `token`. */
export function linkRefusedText(error: ApiError): string {
  const reason = error.details.find((detail) => detail.field === 'token')?.reason ?? '';
  if (error.status === 404) return 'This page is no longer shared. Ask whoever sent you the link for a new one.';
  if (reason.includes('expired')) return "This page's link has expired. Reload the page you opened it from for a new one.";
  if (reason.includes('revoked')) return "This page's link was revoked. Ask whoever sent it to you for a new one.";
  return "This page's link is not valid: it may have been cut short or changed when it was copied. Open it again from where you found it.";
}
