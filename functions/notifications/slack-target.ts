import { literalTargetProblem } from '../../values/network-address';
import type { ClientOptions } from '../billing/providers/client-options';

/** Where Slack's incoming webhooks live (its commercial and GovSlack hosts). */
export const SLACK_WEBHOOK_HOSTS: readonly string[] = ['hooks.slack.com', 'hooks.slack-gov.com'];

/**
 * Why a Slack URL may not be saved or posted to, or undefined: it must be https on one of Slack's
 * webhook hosts or a host the operator allows (SLACK_WEBHOOK_HOSTS), and not name a non-public
 * address; the guarded transport checks again what the name resolves to when it sends. Where the
 * deployment allows private targets (local mode and tests, WEBHOOK_ALLOW_PRIVATE_TARGETS) any
 * http(s) receiver is taken, as for webhook channels.
 */
export function slackUrlProblem(url: string, options: ClientOptions | undefined): string | undefined {
  if (!URL.canParse(url)) return 'is not a URL';
  const target = new URL(url);
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return 'must be an https URL';
  if (options?.allowPrivateTargets) return undefined;
  if (target.protocol !== 'https:') return 'must be an https URL';
  const allowed = [...SLACK_WEBHOOK_HOSTS, ...(options?.slackHosts ?? [])];
  if (!allowed.includes(target.hostname.toLowerCase()))
    return `must be a Slack incoming webhook URL (https://hooks.slack.com/…) or on a host this deployment allows (${allowed.join(', ')})`;
  const problem = literalTargetProblem(target.hostname);
  return problem === undefined ? undefined : `${problem}; this deployment delivers only to public addresses`;
}
