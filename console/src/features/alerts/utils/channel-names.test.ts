import { channelName } from './channel-names';

describe('channelName', () => {
  it('names each kind of channel for people', () => {
    const names = new Map([['ch1', 'On-call hook']]);
    expect(channelName('email:oncall@x.test', names)).toBe('Email oncall@x.test');
    expect(channelName('webhook:ch1', names)).toBe('Webhook On-call hook');
    expect(channelName('webhook:gone', names)).toBe('Webhook gone (deleted)');
    expect(channelName('slack:ab12cd', names)).toBe('Slack …ab12cd');
    expect(channelName('pagerduty:ef34', names)).toBe('PagerDuty …ef34');
    expect(channelName('other', names)).toBe('other');
  });
});
