import { ForbiddenTargetError } from '../../../functions/billing/providers/guarded-fetch';
import { slackSender } from '../../../functions/notifications/channel-senders';
import { slackUrlProblem } from '../../../functions/notifications/slack-target';

describe("alert Slack URLs: Slack's webhook hosts, public, https", () => {
  const onAws = { allowPrivateTargets: false };

  it.each([
    ['https://hooks.slack.com/services/T0/B0/abc', undefined],
    ['https://HOOKS.SLACK.COM/services/T0/B0/abc', undefined],
    ['https://hooks.slack-gov.com/services/T0/B0/abc', undefined],
    ['http://hooks.slack.com/services/T0/B0/abc', /https/],
    ['https://hooks.example.com/services/x', /Slack incoming webhook/],
    ['https://169.254.169.254/latest/meta-data', /Slack incoming webhook/],
    ['ftp://hooks.slack.com/x', /https/],
  ])('%s', (url, problem) => {
    const found = slackUrlProblem(url, onAws);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });

  it("takes an operator's relay host, but never a non-public address even when it is allowed", () => {
    const relay = { allowPrivateTargets: false, slackHosts: ['relay.example.com', '10.0.0.5', '[::1]'] };
    expect(slackUrlProblem('https://relay.example.com/slack', relay)).toBeUndefined();
    expect(slackUrlProblem('https://10.0.0.5/slack', relay)).toMatch(/private address/);
    expect(slackUrlProblem('https://[::1]/slack', relay)).toMatch(/loopback address/);
  });

  it('takes any http(s) receiver where the deployment allows private targets (local mode, tests)', () => {
    expect(slackUrlProblem('http://127.0.0.1:4000/slack', { allowPrivateTargets: true })).toBeUndefined();
  });

  it('refuses at send a URL saved before the check, and records a delivery the transport refused as failed, not unconfirmed', async () => {
    expect(slackSender('https://169.254.169.254/x', 'hello', onAws)).toEqual({ problem: expect.stringContaining('the Slack URL must be') });
    const refusing = slackSender('https://hooks.slack.com/services/T0/B0/abc', 'hello', {
      ...onAws,
      fetch: async () => {
        throw new ForbiddenTargetError('delivery to hooks.slack.com refused: it resolves to 10.0.0.1, a private address');
      },
    });
    if ('problem' in refusing) throw new Error(refusing.problem);
    await expect(refusing.send()).resolves.toEqual({ status: 'failed', error: expect.stringContaining('refused') });
    const silent = slackSender('https://hooks.slack.com/services/T0/B0/abc', 'hello', {
      ...onAws,
      fetch: async () => {
        throw new Error('socket hang up');
      },
    });
    if ('problem' in silent) throw new Error(silent.problem);
    await expect(silent.send()).resolves.toEqual({ status: 'unconfirmed', error: expect.stringContaining('socket hang up') });
  });
});
