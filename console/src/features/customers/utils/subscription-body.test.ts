import { subscriptionBody } from './subscription-body';

describe('the body of the subscription form', () => {
  const values = { companyId: 'acme', id: '', status: 'active' as const, start: '2026-11-01', end: '2026-12-01', items: [] };

  it('generates an id when none is given and keeps a chosen one', () => {
    expect(subscriptionBody(values, () => 'sub_generated').subscription_id).toBe('sub_generated');
    expect(subscriptionBody({ ...values, id: ' sub_1 ' }).subscription_id).toBe('sub_1');
    expect(subscriptionBody(values).subscription_id).toMatch(/^sub_[0-9a-f]{16}$/);
  });

  it('sends the period as UTC midnights and the items with a plan or price, leaving empty rows out', () => {
    const body = subscriptionBody({
      ...values,
      id: 'sub_1',
      items: [
        { planId: 'starter', priceId: '' },
        { planId: '', priceId: '' },
        { planId: 'pro', priceId: 'price_1' },
      ],
    });
    expect(body).toEqual({
      subscription_id: 'sub_1',
      company_id: 'acme',
      status: 'active',
      current_period_start: '2026-11-01T00:00:00.000Z',
      current_period_end: '2026-12-01T00:00:00.000Z',
      items: [{ plan_id: 'starter' }, { plan_id: 'pro', price_id: 'price_1' }],
    });
    expect(subscriptionBody({ ...values, start: '', end: '' })).not.toHaveProperty('current_period_start');
  });
});
