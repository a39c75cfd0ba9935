/**
 * A channel of an alert event in words: an email address as it is, a webhook channel by its name
 * (its id when it no longer exists), Slack and PagerDuty by kind with the short hash the service
 * keeps instead of the URL or key.
 */
export function channelName(key: string, webhookNames: ReadonlyMap<string, string>): string {
  const at = key.indexOf(':');
  const kind = key.slice(0, at);
  const rest = key.slice(at + 1);
  if (kind === 'email') return `Email ${rest}`;
  if (kind === 'webhook') return webhookNames.has(rest) ? `Webhook ${webhookNames.get(rest)}` : `Webhook ${rest} (deleted)`;
  if (kind === 'slack') return `Slack …${rest}`;
  if (kind === 'pagerduty') return `PagerDuty …${rest}`;
  return key;
}
